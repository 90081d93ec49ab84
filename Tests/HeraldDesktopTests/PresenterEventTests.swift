import Foundation
import HeraldDesktop
import HeraldProtocol
import Testing

/// Presenter events as issue 12 describes them on the wire.
@Suite struct PresenterEventTests {
    static let notificationText = """
        {"identifier":"n1","app":"org.example.chat","state":"delivered",\
        "receivedAt":"2026-11-23T10:00:00Z","deliveredAt":"2026-11-23T10:00:00Z",\
        "content":{"title":"Ada","body":"hi","interruptionLevel":"timeSensitive"},\
        "delivery":{"presentation":"alert","sound":true,"lightsScreen":true,"breaksThroughFocus":false,\
        "breaksThroughSummary":false,"bypassesRinger":false,"announce":false,\
        "reasons":[{"code":"delivered","message":"Delivered."}]}}
        """

    @Test func delivered() throws {
        let params = try JSONParser.parse(#"{"uid":1000,"notification":\#(Self.notificationText)}"#)
        let event = try #require(try PresenterEvent(method: "notification-delivered", params: params))
        guard case .delivered(let uid, let notification) = event else { Issue.record("not delivered: \(event)"); return }
        #expect(uid == 1000)
        #expect(notification.key == NotificationKey(app: "org.example.chat", identifier: "n1"))
        #expect(notification.content.interruptionLevel == .timeSensitive)
        #expect(notification.delivery.presentation == .alert)
        #expect(notification.actions == nil)
    }

    @Test func summary() throws {
        let params = try JSONParser.parse(
            #"{"uid":1000,"deliveredAt":"2026-11-23T18:00:00Z","notifications":[\#(Self.notificationText),\#(Self.notificationText)]}"#
        )
        let event = try #require(try PresenterEvent(method: "summary-delivered", params: params))
        guard case .summary(_, _, let quiet, let notifications) = event else { Issue.record("not a summary: \(event)"); return }
        #expect(notifications.count == 2)
        #expect(!quiet, "a summary without presentation is an alert")

        let during = try JSONParser.parse(
            #"{"uid":1000,"deliveredAt":"2026-11-23T18:00:00Z","presentation":"quiet","focus":"Work","notifications":[\#(Self.notificationText)]}"#
        )
        guard case .summary(_, _, true, _) = try #require(try PresenterEvent(method: "summary-delivered", params: during)) else {
            Issue.record("a summary delivered during a Focus is not quiet")
            return
        }
    }

    @Test func removed() throws {
        let params = try JSONParser.parse(#"{"uid":1000,"app":"org.example.chat","identifiers":["n1","n2"]}"#)
        #expect(try PresenterEvent(method: "notifications-removed", params: params) == .removed(uid: 1000, app: "org.example.chat", identifiers: ["n1", "n2"]))
    }

    @Test func eventsSkipped() throws {
        #expect(try PresenterEvent(method: "events-skipped", params: JSONParser.parse(#"{"skipped":42,"alerts":40}"#)) == .eventsSkipped(count: 42, alerts: 40))
        #expect(try PresenterEvent(method: "events-skipped", params: JSONParser.parse(#"{"skipped":42}"#)) == .eventsSkipped(count: 42, alerts: nil))
        #expect(throws: RPCError.self) { try PresenterEvent(method: "events-skipped", params: JSONParser.parse(#"{"skipped":"many"}"#)) }
    }

    @Test func skippedEventsAreOneQuietBubblePerUID() throws {
        let bubble = try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).skippedBubble(count: 12, uid: 1000))
        #expect(bubble.key == .skipped(uid: 1000))
        #expect(bubble.arguments.summary == "12 notifications were not shown as they came")
        #expect(bubble.arguments.body == "They are in your notification list: heraldctl notifications list")
        #expect(bubble.arguments.hints.contains { $0.0 == "suppress-sound" })
        let one = try #require(NotificationMapping(capabilities: ServerCapabilities([])).skippedBubble(count: 1, uid: 1000))
        #expect(one.arguments.summary == "1 notification was not shown as it came — They are in your notification list: heraldctl notifications list")
        #expect(NotificationMapping(capabilities: ServerCapabilities(["body"])).skippedBubble(count: 0, uid: 1000) == nil)
    }

    @Test func otherNotificationsAreNotPresenterEvents() throws {
        #expect(try PresenterEvent(method: "focus-changed", params: .object(JSONObject())) == nil)
    }

    @Test func aBrokenEventNamesTheMember() throws {
        let params = try JSONParser.parse(#"{"uid":"x","app":"a","identifiers":[]}"#)
        do {
            _ = try PresenterEvent(method: "notifications-removed", params: params)
            Issue.record("decoded a uid that is a string")
        } catch {
            #expect(error.pointer == "/params/uid")
        }
    }
}
