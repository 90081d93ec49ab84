import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// herald-notify with the real heraldd and dunst (issue 15 on issue 14): a person's action on a
/// bubble reaches the app as `notification-response` — the default action through
/// `dunstctl action`, another through dunst's context menu, and a dismissal (`dunstctl close`)
/// as `dismiss` for a category with customDismissAction.
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyResponsesEndToEndTests {
    static let app = "org.example.chat"

    /// A dmenu for dunst's context menu, which hands it one line per action: it picks `title`.
    static func dmenu(choosing title: String) throws -> String {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("herald-dmenu-\(UUID().uuidString.prefix(8))").path
        try "#!/bin/sh\ngrep -m1 '^#\(title) '\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    @Test func actionsAndADismissalReachTheApp() throws {
        let script = try Self.dmenu(choosing: "Like")
        defer { unlink(script) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let poster = try heraldd.connect()
        let app = try heraldd.connect()
        let categories = json(
            #"[{"identifier":"message","options":["customDismissAction"],"actions":[{"identifier":"like","title":"Like","icon":{"systemImageName":"emblem-favorite"}},{"identifier":"reply","title":"Reply","textInput":{"buttonTitle":"Send","placeholder":"Message"}}]}]"#
        )
        let set = try poster.call("set-notification-categories", ["app": .string(Self.app), "categories": categories])
        #expect(set[pointer: "/result"] != nil, "\(set)")
        #expect(try app.call("subscribe-responses", ["app": .string(Self.app)])[pointer: "/result/pending"] == 0)

        func show(_ identifier: String) throws {
            let content = #"{"app":"\#(Self.app)","identifier":"\#(identifier)","content":{"title":"Ada","body":"Lunch? (\#(identifier))","categoryIdentifier":"message"}}"#
            #expect(try poster.call("update-content", json(content))[pointer: "/result/identifier"] == .string(identifier))
            #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        }
        func heard(timeout: Double = 20) throws -> JSONValue? {
            try ResponsesEndToEndTests.next("notification-response", from: app, timeout: timeout)
        }

        try show("d1")
        #expect(session.dunstctl(["action", "0"]).status == 0)
        let opened = try #require(try heard(), "\(notify.stderr)")
        #expect(opened[pointer: "/identifier"] == "d1" && opened[pointer: "/actionIdentifier"] == "default")
        // The response removed the notification: heraldd's notifications-removed closed the bubble.
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")

        try show("d2")
        #expect(session.dunstctl(["context"]).status == 0)
        let liked = try #require(try heard(), "\(notify.stderr)")
        #expect(liked[pointer: "/identifier"] == "d2" && liked[pointer: "/actionIdentifier"] == "like")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")

        try show("d3")
        #expect(session.dunstctl(["close"]).status == 0)
        let dismissed = try #require(try heard(), "\(notify.stderr)")
        #expect(dismissed[pointer: "/identifier"] == "d3" && dismissed[pointer: "/actionIdentifier"] == "dismiss")
        // Nothing else was answered (an action's bubble closing is not a dismissal), and the list is empty.
        #expect((try? heard(timeout: 2)) == nil)
        #expect(try poster.call("list-notifications", ["app": .string(Self.app)])[pointer: "/result/notifications"] == [])
    }

    /// Issue 31: "Snooze 1 hour" on a bubble snoozes it in heraldd — the bubble goes, the
    /// list says until when — and the app hears nothing: it is the person's, not an action.
    @Test func snoozeOnABubbleSnoozesIt() throws {
        let script = try Self.dmenu(choosing: "Snooze 1 hour")
        defer { unlink(script) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let poster = try heraldd.connect()
        let app = try heraldd.connect()
        #expect(try app.call("subscribe-responses", ["app": .string(Self.app)])[pointer: "/result/pending"] == 0)
        let content = #"{"app":"\#(Self.app)","identifier":"s1","content":{"title":"Ada","body":"Call me later"}}"#
        #expect(try poster.call("update-content", json(content))[pointer: "/result/identifier"] == "s1")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        #expect(session.dunstctl(["context"]).status == 0)
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "the snooze took the bubble down: \(notify.stderr)")
        let listed = try poster.call("list-notifications", ["app": .string(Self.app)])
        #expect(listed[pointer: "/result/notifications/0/state"] == "snoozed", "\(listed.compactText)")
        let until = try #require(listed[pointer: "/result/notifications/0/snoozedUntil"]?.stringValue)
        let seconds = try #require(RFC3339.parse(until)).timeIntervalSinceNow
        #expect(seconds > 3500 && seconds <= 3600, "an hour: \(until)")
        #expect((try? ResponsesEndToEndTests.next("notification-response", from: app, timeout: 2)) == nil, "the app heard nothing")
    }

    /// Issue 45, item 9: dunst has no inline reply, so a reply action is offered only when
    /// the person gave herald-notify a prompt (`--reply-command`, here a script in rofi's
    /// place); what they type reaches the app as `userText`, and a prompt closed without a
    /// reply sends nothing.
    @Test(arguments: [true, false])
    func aReplyTypedIntoThePersonsPromptReachesTheApp(typed: Bool) throws {
        let script = try Self.dmenu(choosing: "Reply")
        defer { unlink(script) }
        let asked = FileManager.default.temporaryDirectory.appendingPathComponent("herald-asked-\(UUID().uuidString.prefix(8))").path
        defer { unlink(asked) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let answer = typed ? "echo 'On my way'" : "exit 1"
        let command = "printf '%s|%s' \"$HERALD_REPLY_PROMPT\" \"$HERALD_REPLY_APP\" > \(asked); \(answer)"
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath, arguments: ["--reply-command", command])
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let poster = try heraldd.connect()
        let app = try heraldd.connect()
        let categories = json(#"[{"identifier":"message","actions":[{"identifier":"reply","title":"Reply","textInput":{"buttonTitle":"Send","placeholder":"Message Ada"}}]}]"#)
        #expect(try poster.call("set-notification-categories", ["app": .string(Self.app), "categories": categories])[pointer: "/result"] != nil)
        #expect(try app.call("subscribe-responses", ["app": .string(Self.app)])[pointer: "/result/pending"] == 0)
        let content = #"{"app":"\#(Self.app)","identifier":"r1","content":{"title":"Ada","body":"Lunch?","categoryIdentifier":"message"}}"#
        #expect(try poster.call("update-content", json(content))[pointer: "/result/identifier"] == "r1")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        #expect(session.dunstctl(["context"]).status == 0)
        #expect(session.wait(timeout: 20) { FileManager.default.fileExists(atPath: asked) }, "the prompt ran: \(notify.stderr)")
        if typed {
            let response = try ResponsesEndToEndTests.next("notification-response", from: app, timeout: 20)
            #expect(response?[pointer: "/identifier"] == "r1" && response?[pointer: "/actionIdentifier"] == "reply", "\(String(describing: response))")
            #expect(response?[pointer: "/userText"] == "On my way", "\(String(describing: response)); \(notify.stderr)")
        } else {
            #expect(notify.waitForLog(containing: "the reply prompt was closed without a reply"), "\(notify.stderr)")
            let response = try? ResponsesEndToEndTests.next("notification-response", from: app, timeout: 1)
            #expect(response == nil, "closed without a reply, nothing is sent: \(String(describing: response))")
        }
        #expect((try? String(contentsOfFile: asked, encoding: .utf8)) == "Message Ada|\(Self.app)")
    }
}
