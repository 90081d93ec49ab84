import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31: a person snoozes a notification with heraldctl; the presenter takes it down,
/// and heraldd delivers it again at its time, with its reason and in the journal.
@Suite("Snooze, end to end")
struct SnoozeEndToEndTests {
    @Test("heraldctl snoozes a notification: the presenter takes it down, and it comes back at its time")
    func snoozeAndComeBack() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        try client.result(
            "update-content", ["app": "org.example.chat", "identifier": "m-1", "content": ["title": "Ann", "body": "Call me back"]])
        #expect(try NotificationListEndToEndTests.next("notification-delivered", from: presenter) != nil)

        let snoozed = try Heraldctl.run(["notifications", "snooze", "org.example.chat", "m-1", "--for", "2s", "--socket", herald.socketPath])
        #expect(snoozed.stdout.hasPrefix("Snoozed m-1 of org.example.chat until "), "\(snoozed)")
        let removed = try #require(try NotificationListEndToEndTests.next("notifications-removed", from: presenter, timeout: 5))
        #expect(removed[pointer: "/identifiers"] == ["m-1"])
        let listed = try client.call("list-notifications", ["app": "org.example.chat"])
        #expect(listed[pointer: "/result/notifications/0/state"] == "snoozed", "\(listed.compactText)")
        #expect(listed[pointer: "/result/notifications/0/snoozedUntil"]?.stringValue != nil)

        let back = try #require(try NotificationListEndToEndTests.next("notification-delivered", from: presenter, timeout: 10))
        #expect(back[pointer: "/notification/identifier"] == "m-1")
        #expect(back[pointer: "/notification/delivery/reasons/0/code"] == "snoozeEnded", "\(back.compactText)")
        #expect(back[pointer: "/notification/state"] == "delivered")

        let refused = try client.call("snooze-notification", ["app": "org.example.chat", "identifier": "m-1"])
        #expect(refused[pointer: "/error/code"] == -32602 && refused[pointer: "/error/data/pointer"] == "/seconds", "\(refused.compactText)")
        let missing = try client.call("snooze-notification", ["app": "org.example.chat", "identifier": "none", "seconds": 60])
        #expect(missing[pointer: "/error/data/pointer"] == "/identifier", "\(missing.compactText)")
    }
}
