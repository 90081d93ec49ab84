import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 28: a Focus and the scheduled summary together, over the real heraldd's socket
/// and through heraldctl (in UTC, so that summary times are read as the test writes them).
@Suite("Focus and summary together, end to end")
struct FocusAndSummaryEndToEndTests {
    static let news = "org.example.news"

    @Test("Held for the summary under a Focus, naming both; the summary arrives quietly and summary deliver counts it")
    func heldUnderAFocusThenAQuietSummary() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--snapshot-interval", "0"], environment: ["TZ": "UTC"])
        let client = try herald.connect()
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let later = NotificationListEndToEndTests.clockTime(in: 6 * 3600)
        try client.result("set-summary", ["apps": [.string(Self.news)], "times": [.string(later)]])
        try client.result("set-focus", ["focus": ["name": "Work"]])

        let held = try client.call("update-content", NotificationListEndToEndTests.update(Self.news, "n-1", title: "Headline"))
        #expect(describeDelivery(held).hasPrefix("summary deliverAt="), "\(held.compactText)")
        #expect(describeDelivery(held).hasSuffix(" [silencedByFocus, heldForSummary]"), "\(held.compactText)")
        #expect(held[pointer: "/result/delivery/reasons/0/message"]?.stringValue?.contains("\u{201C}Work\u{201D}") == true)
        let scheduled = try NotificationListEndToEndTests.list(client, ["app": .string(Self.news), "state": "scheduled"])
        #expect(NotificationListEndToEndTests.identifiers(.array(scheduled)) == ["n-1"])

        let deliver = try Heraldctl.run(["summary", "deliver", "--socket", herald.socketPath])
        #expect(deliver.status == 0 && deliver.stdout == "Delivered 1 scheduled notification.\n", "\(deliver)")
        let summary = try NotificationListEndToEndTests.next("summary-delivered", from: presenter)
        #expect(NotificationListEndToEndTests.identifiers(summary?[pointer: "/notifications"]) == ["n-1"])
        #expect(summary?[pointer: "/presentation"] == "quiet" && summary?[pointer: "/focus"] == "Work", "\(summary?.compactText ?? "none")")

        // With the Focus off, the next summary is an alert again and names no Focus.
        try client.result("set-focus", ["focus": nil])
        let alert = try client.call("update-content", NotificationListEndToEndTests.update(Self.news, "n-2", title: "Later"))
        #expect(describeDelivery(alert).hasSuffix(" [heldForSummary]"), "\(alert.compactText)")
        #expect(try client.call("deliver-summary", [:])[pointer: "/result/delivered"] == 1)
        let next = try NotificationListEndToEndTests.next("summary-delivered", from: presenter)
        #expect(next?[pointer: "/presentation"] == "alert" && next?[pointer: "/focus"] == nil, "\(next?.compactText ?? "none")")
    }
}
