import Foundation
import HeraldBus
import HeraldTesting
import Testing

extension HeraldNotifyDesktopEndToEndTests {
    /// The renderer answering late (dunst stopped past herald-notify's call timeout to it,
    /// 1 s here): the bubbles it shows late are still heraldd's. A notification replaced
    /// while its first Notify is late goes as a bubble of its own, and the late one is closed
    /// once the renderer names it; a notification removed while its Notify is late is closed
    /// too. On screen, only the replacement is left, and its removal closes it.
    @Test func bubblesTheRendererShowsLateAreStillHeralddsToReplaceAndClose() throws {
        let running = try Self.start(arguments: ["--renderer-timeout", "1"])
        // Of no thread: no stack tag, by which dunst would replace the bubble itself.
        func build(_ body: String) -> [String: Any] {
            PresenterLines.notification(identifier: "l1", content: ["title": "Build", "body": body, "interruptionLevel": "active"])
        }
        let monitor = try BusMonitor.notifyCalls(onBus: running.session.busAddress)

        running.session.pauseServer()
        try running.send(PresenterLines.delivered(build("first")))
        try running.send(PresenterLines.delivered(Self.message("l2", body: "alpha")))
        #expect(monitor.sawNotify(body: "alpha"), "\(running.notify.stderr)")
        #expect(running.notify.waitForLog(containing: "has not answered"), "\(running.notify.stderr)")
        try running.send(PresenterLines.delivered(build("second")))
        try running.send(PresenterLines.removed(["l2"]))
        #expect(monitor.sawNotify(body: "second"), "the replacement went past the late Notify: \(running.notify.stderr)")
        running.session.resumeServer()

        func closedBodies() -> Set<String> { Set(running.session.history().compactMap { $0["body"] as? String }) }
        #expect(running.session.wait(timeout: 20) { closedBodies() == ["first", "alpha"] }, "\(closedBodies()) \(running.notify.stderr)")
        #expect(running.session.displayedCount == 1, "\(running.session.history())")
        try running.send(PresenterLines.removed(["l1"]))
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 0 }, "\(running.notify.stderr)")
        #expect(closedBodies() == ["first", "alpha", "second"])
        #expect(!running.notify.stderr.contains("Notify failed"), "\(running.notify.stderr)")
    }
}
