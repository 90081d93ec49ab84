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
        let running = try Self.startWithHeralddGone()
        let monitor = try BusMonitor.notifyCalls(onBus: running.session.rendererBusAddress!)
        let backup = Self.backup
        func backupBodies() -> [String] { Self.backupBodies(running) }

        running.session.pauseServer()
        let first = running.notifySend(["-p"] + backup + ["10%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UInt32(first) != nil, "notify-send -p printed \(first)")
        #expect(running.notifySend(["-p", "-r", first] + backup + ["50%"]).status == 0)
        #expect(monitor.sawNotify(body: "50%"), "the replacement went to the renderer: \(running.notify.stderr)")
        running.session.resumeServer()

        #expect(running.session.wait(timeout: 20) { backupBodies() == ["10%"] }, "\(backupBodies()) \(running.notify.stderr)")
        #expect(running.notifySend(["-p", "-r", first] + backup + ["90%"]).status == 0)
        #expect(running.gdbus("CloseNotification", [first]).status == 0)
        #expect(running.session.wait(timeout: 20) { backupBodies() == ["90%", "10%"] }, "\(backupBodies()) \(running.notify.stderr)")
        #expect(running.session.displayedCount == 1, "\(running.session.history())")
        #expect(running.notify.stderr.contains("the renderer has not answered"), "\(running.notify.stderr)")
    }

    /// heraldd gone and the app's notification on screen: a replacement the renderer answers
    /// late and the app's next replacement both replace that bubble in place, and the
    /// renderer names it to both. The late answer leaves it to the newer one's: the app's
    /// newest content stays on screen until the app's `CloseNotification` closes it.
    @Test func aLateAnswerLeavesTheBubbleTheAppsNewerReplacementReplacedInPlace() throws {
        let running = try Self.startWithHeralddGone()
        let monitor = try BusMonitor.notifyCalls(onBus: running.session.rendererBusAddress!)
        let backup = Self.backup
        func backupBodies() -> [String] { Self.backupBodies(running) }

        // On screen beside the notice that Herald is not running. `dunstctl` goes through the
        // gateway, after the renderer's answer: the gateway knows the bubble's id.
        let first = running.notifySend(["-p"] + backup + ["10%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UInt32(first) != nil, "notify-send -p printed \(first)")
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 2 }, "\(running.notify.stderr)")

        running.session.pauseServer()
        #expect(running.notifySend(["-p", "-r", first] + backup + ["50%"]).status == 0)
        #expect(monitor.sawNotify(body: "50%"), "the replacement went to the renderer: \(running.notify.stderr)")
        #expect(running.notify.waitForLog(containing: "the renderer has not answered"), "\(running.notify.stderr)")
        #expect(running.notifySend(["-p", "-r", first] + backup + ["70%"]).status == 0)
        #expect(monitor.sawNotify(body: "70%"), "the next replacement went past the late one: \(running.notify.stderr)")
        running.session.resumeServer()

        // Each `dunstctl` call goes through the gateway behind what it sent before: the second
        // is answered after any CloseNotification the gateway sent for the answers to 50% and 70%.
        _ = running.session.displayedCount
        _ = running.session.displayedCount
        #expect(
            !running.session.wait(timeout: 2) { running.session.displayedCount != 2 || !backupBodies().isEmpty },
            "the app's newest bubble was closed: \(backupBodies()) \(running.notify.stderr)"
        )
        #expect(running.gdbus("CloseNotification", [first]).status == 0)
        #expect(running.session.wait(timeout: 20) { backupBodies() == ["70%"] }, "\(backupBodies()) \(running.notify.stderr)")
        #expect(running.session.displayedCount == 1, "\(running.session.history())")
    }

    /// herald-notify with heraldd killed and its call timeout to the renderer 1 s: apps'
    /// notifications are shown directly, and a `Notify` dunst leaves unanswered is soon late.
    private static func startWithHeralddGone() throws -> Running {
        let heraldd = try HeraldProcess(.standalone)
        let running = try start(heraldd: heraldd, arguments: ["--renderer-timeout", "1"])
        heraldd.process.signal(SIGKILL)
        _ = heraldd.process.waitForExit(timeout: 10)
        #expect(running.notify.waitForLog(containing: "lost heraldd"), "\(running.notify.stderr)")
        return running
    }

    /// `notify-send`'s arguments for the backup app's notification, before its body.
    private static let backup = ["-a", "org.example.backup", "Backup"]

    /// The bodies of the backup app's bubbles dunst has closed, newest first.
    private static func backupBodies(_ running: Running) -> [String] {
        running.session.history().filter { $0["appname"] as? String == "org.example.backup" }.compactMap { $0["body"] as? String }
    }
}
