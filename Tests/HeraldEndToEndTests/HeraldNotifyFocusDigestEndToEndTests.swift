import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

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

    /// Issue 45, item 7: "Show" on the digest (dunst's context menu) lists what the Focus
    /// silenced in the digest's place — app and title and text, newest first, the first
    /// eight and how many more — and leaves out what it did not silence.
    @Test func showOnTheDigestListsWhatWasMissed() throws {
        let script = try HeraldNotifyResponsesEndToEndTests.dmenu(choosing: "Show")
        defer { unlink(script) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let client = try heraldd.connect()
        // Before the Focus: not missed, though in the list.
        try client.result("update-content", ["app": "org.example.mail", "identifier": "before", "content": ["title": "Earlier", "body": "Seen"]])
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        session.closeAll()
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 })
        try client.result("set-focus", ["focus": ["name": "Work"]])
        for number in 1...9 {
            try FocusDigestEndToEndTests.message("m-\(number)", from: "Ann", in: "c-ann", client: client)
        }
        try client.result("update-content", ["app": "org.example.mail", "identifier": "p-1", "content": ["title": "Invoice", "body": "Due Friday"]])
        try client.result("set-focus", ["focus": .null])
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "the digest: \(notify.stderr)")

        #expect(session.dunstctl(["context"]).status == 0)
        #expect(notify.waitForLog(containing: "showing 10 of the 10 notifications Work silenced"), "\(notify.stderr)")
        // The list replaces the digest; close what is shown until it is in dunst's history.
        let listed = session.wait(timeout: 20) {
            session.closeAll()
            return session.history().contains { ($0["summary"] as? String)?.hasPrefix("Missed while Work was on") == true }
        }
        #expect(listed, "\(session.history()) \(notify.stderr)")
        let bubble = session.history().first { ($0["summary"] as? String)?.hasPrefix("Missed while Work was on") == true }
        let lines = (bubble?["body"] as? String ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "eight and how many more: \(lines)")
        #expect(lines.first == "org.example.mail — Invoice: Due Friday", "newest first: \(lines)")
        #expect(lines.dropFirst().prefix(7).allSatisfy { $0 == "org.example.chat — Ann: Lunch?" }, "\(lines)")
        #expect(lines.last == "and 2 more — heraldctl focus missed, heraldctl notifications list", "\(lines)")
        #expect(!lines.contains { $0.contains("Earlier") }, "not silenced by Work: \(lines)")
        #expect(bubble?["appname"] as? String == "Herald")
    }
}
