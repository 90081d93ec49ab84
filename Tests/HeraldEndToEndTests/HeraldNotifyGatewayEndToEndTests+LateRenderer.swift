import Foundation
import HeraldBus
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension HeraldNotifyGatewayEndToEndTests {
    /// heraldd gone and the renderer answering late (dunst stopped past herald-notify's
    /// call timeout to it, 1 s here): the bubble it shows late is still the app's. The app's
    /// replacement, made while the first `Notify` was unanswered, goes once that one is late,
    /// as a bubble of its own; the late bubble is closed once the renderer names it; the
    /// app's next replacement replaces the bubble in place and its `CloseNotification`
    /// closes it. On screen, only the notice that Herald is not running is left.
    @Test func aBubbleTheRendererShowsLateIsStillTheAppsToReplaceAndClose() throws {
        let heraldd = try HeraldProcess(.standalone)
        let running = try Self.start(heraldd: heraldd, arguments: ["--renderer-timeout", "1"])
        heraldd.process.signal(SIGKILL)
        _ = heraldd.process.waitForExit(timeout: 10)
        #expect(running.notify.waitForLog(containing: "lost heraldd"), "\(running.notify.stderr)")
        let monitor = try BusMonitor.notifyCalls(onBus: running.session.rendererBusAddress!)
        let backup = ["-a", "org.example.backup", "Backup"]

        running.session.pauseServer()
        let first = running.notifySend(["-p"] + backup + ["10%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UInt32(first) != nil, "notify-send -p printed \(first)")
        #expect(running.notifySend(["-p", "-r", first] + backup + ["50%"]).status == 0)
        #expect(monitor.sawNotify(body: "50%"), "the replacement went to the renderer: \(running.notify.stderr)")
        running.session.resumeServer()

        func backupBodies() -> [String] {
            running.session.history().filter { $0["appname"] as? String == "org.example.backup" }.compactMap { $0["body"] as? String }
        }
        #expect(running.session.wait(timeout: 20) { backupBodies() == ["10%"] }, "\(backupBodies()) \(running.notify.stderr)")
        #expect(running.notifySend(["-p", "-r", first] + backup + ["90%"]).status == 0)
        #expect(running.gdbus("CloseNotification", [first]).status == 0)
        #expect(running.session.wait(timeout: 20) { backupBodies() == ["90%", "10%"] }, "\(backupBodies()) \(running.notify.stderr)")
        #expect(running.session.displayedCount == 1, "\(running.session.history())")
        #expect(running.notify.stderr.contains("the renderer has not answered"), "\(running.notify.stderr)")
    }
}
