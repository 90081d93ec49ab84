import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, on the desktop: "Mute conversation 1 hour" on a message's bubble, chosen in
/// dunst's context menu, mutes its conversation in heraldd; the app hears nothing.
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyMuteConversationEndToEndTests {
    static let app = HeraldNotifyResponsesEndToEndTests.app

    @Test func muteConversationOnABubbleMutesIt() throws {
        let script = try HeraldNotifyResponsesEndToEndTests.dmenu(choosing: "Mute conversation 1 hour")
        defer { unlink(script) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let poster = try heraldd.connect()
        let app = try heraldd.connect()
        #expect(try app.call("subscribe-responses", ["app": .string(Self.app)])[pointer: "/result/pending"] == 0)
        try poster.result("donate", ConversationControlEndToEndTests.message("m-1", conversation: "c-trip"))
        let content = #"{"app":"\#(Self.app)","identifier":"s1","interactionIdentifier":"m-1","content":{"body":"Trip?"}}"#
        #expect(try poster.call("update-content", json(content))[pointer: "/result/identifier"] == "s1")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        #expect(session.dunstctl(["context"]).status == 0)
        let deadline = Date().addingTimeInterval(20)
        var listed = try poster.call("list-conversations")
        while listed[pointer: "/result/conversations/0"] == nil, Date() < deadline {
            usleep(100_000)
            listed = try poster.call("list-conversations")
        }
        #expect(listed[pointer: "/result/conversations/0/conversationIdentifier"] == "c-trip", "\(listed.compactText) \(notify.stderr)")
        #expect(listed[pointer: "/result/conversations/0/muted"] == true)
        let until = try #require(listed[pointer: "/result/conversations/0/mutedUntil"]?.stringValue)
        let seconds = try #require(RFC3339.parse(until)).timeIntervalSinceNow
        #expect(seconds > 3500 && seconds <= 3600, "an hour: \(until)")
        #expect((try? ResponsesEndToEndTests.next("notification-response", from: app, timeout: 2)) == nil, "the app heard nothing")

        try poster.result("donate", ConversationControlEndToEndTests.message("m-2", conversation: "c-trip"))
        let next = try poster.call("update-content", ["app": .string(Self.app), "interactionIdentifier": "m-2", "content": ["body": "Hello?"]])
        #expect(next[pointer: "/result/delivery/reasons/0/code"] == "conversationMuted", "\(next.compactText)")
    }
}
