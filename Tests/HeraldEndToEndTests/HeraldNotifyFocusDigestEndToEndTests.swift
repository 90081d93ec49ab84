import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31, "what you missed", on the desktop: herald-notify with the real heraldd and
/// dunst shows a Focus's digest as one bubble when the Focus ends.
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyFocusDigestEndToEndTests {
    @Test func aFocusThatEndsLeavesOneBubbleOfWhatItSilenced() throws {
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession()
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let client = try heraldd.connect()
        try client.result("set-focus", ["focus": ["name": "Work"]])
        try FocusDigestEndToEndTests.message("m-1", from: "Ann", in: "c-ann", client: client)
        try FocusDigestEndToEndTests.message("m-2", from: "Ann", in: "c-ann", client: client)
        try client.result("update-content", ["app": "org.example.mail", "identifier": "p-1", "content": ["title": "Invoice"]])
        // Quiet notifications pop up nothing (--quiet skip, the default).
        #expect(!session.wait(timeout: 1) { session.displayedCount > 0 }, "\(notify.stderr)")

        try client.result("set-focus", ["focus": .null])
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        session.closeAll()
        _ = session.wait(timeout: 20) { session.history().count >= 1 }
        let history = session.history()
        #expect(history.count == 1)
        #expect(history.first?["summary"] as? String == "While Work was on: 3 notifications", "\(history)")
        #expect(history.first?["body"] as? String == "org.example.chat: Ann (2)\norg.example.mail (1)", "\(history)")
        #expect(history.first?["appname"] as? String == "Herald")
    }
}
