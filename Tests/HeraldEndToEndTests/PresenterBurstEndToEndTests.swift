import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 49, finding 8: a presenter that reads is never closed for a burst. What a burst
/// brings past `--max-unread-bytes` is coalesced into one `events-skipped`, so that every
/// notification of the burst is either sent or counted; only a presenter that stops
/// reading is closed (`NotificationListEndToEndTests.aPresenterThatDoesNotRead`).
@Suite("Presenter bursts, end to end")
struct PresenterBurstEndToEndTests {
    static let chat = "org.example.chat"
    static let body = String(repeating: "b", count: 3_000)

    /// Reads a presenter's lines until `count` notifications are sent or counted skipped,
    /// or it is quiet for `quiet` seconds; returns what it read, by kind.
    static func drain(_ presenter: UnixSocketClient, count: Int, quiet: Double = 5) throws -> (delivered: Int, skipped: Int, alerts: Int, closed: Bool) {
        var delivered = 0
        var skipped = 0
        var alerts = 0
        while delivered + skipped < count {
            let line: String?
            do {
                line = try presenter.readLine(timeout: quiet)
            } catch {
                return (delivered, skipped, alerts, false)
            }
            guard let line else { return (delivered, skipped, alerts, true) }
            let value = try IndependentJSON.parse(line)
            switch value[pointer: "/method"]?.stringValue {
            case "notification-delivered": delivered += 1
            case "events-skipped":
                skipped += Int(value[pointer: "/params/skipped"]?.numberValue?.description ?? "") ?? 0
                alerts += Int(value[pointer: "/params/alerts"]?.numberValue?.description ?? "") ?? 0
            default: break
            }
        }
        return (delivered, skipped, alerts, false)
    }

    static func post(_ client: UnixSocketClient, count: Int) throws {
        for index in 0..<count {
            let params: JSONValue = ["app": .string(chat), "identifier": .string("n-\(index)"), "content": ["title": "Shop", "body": .string(body)]]
            #expect(try client.call("update-content", params)[pointer: "/result"] != nil)
        }
    }

    static func closedUnread(_ client: UnixSocketClient) throws -> String? {
        try client.call("stats")[pointer: "/result/connections/closedUnread"]?.numberValue?.description
    }

    @Test("600 snoozes ending at the same instant: a reading presenter gets each or its count, and stays")
    func snoozesEndingTogether() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--max-unread-bytes", "16384", "--log-target", "none"])
        let client = try herald.connect()
        let count = 600
        try Self.post(client, count: count)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let until = formatter.string(from: Date().addingTimeInterval(8).rounded(toSeconds: 1))
        for index in 0..<count {
            let snoozed = try client.call("snooze-notification", ["app": .string(Self.chat), "identifier": .string("n-\(index)"), "until": .string(until)])
            #expect(snoozed[pointer: "/result"] != nil, "\(snoozed.compactText)")
        }
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let read = try Self.drain(presenter, count: count, quiet: 20)
        #expect(!read.closed, "a presenter that reads is not closed")
        #expect(read.delivered + read.skipped == count, "each sent or counted: \(read)")
        #expect(read.skipped > 0, "the burst is past --max-unread-bytes: \(read)")
        #expect(try presenter.call("stats")[pointer: "/result"] != nil, "still answered")
        #expect(try Self.closedUnread(client) == "0")
    }

    @Test("An undo of 500 removals with 3 KB bodies: a reading presenter gets each or its count, and stays")
    func undoOfFiveHundred() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--max-unread-bytes", "16384", "--log-target", "none"])
        let client = try herald.connect()
        try Self.post(client, count: 500)
        #expect(try client.call("remove-notifications", ["app": .string(Self.chat), "all": true])[pointer: "/result/removed"] == 500)
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        #expect(try client.call("restore-notifications", [:])[pointer: "/result/restored"] == 500)
        let read = try Self.drain(presenter, count: 500)
        #expect(!read.closed)
        #expect(read.delivered + read.skipped == 500, "each sent or counted: \(read)")
        #expect(read.skipped > 0, "\(read)")
        #expect(read.alerts == read.skipped, "each restored one is an alert: \(read)")
        // Told what it missed, the presenter is itself again: the next one is sent whole.
        let params: JSONValue = ["app": .string(Self.chat), "identifier": "after", "content": ["title": "after"]]
        _ = try client.call("update-content", params)
        let after = try Self.drain(presenter, count: 1)
        #expect(after.delivered == 1, "\(after)")
        #expect(try Self.closedUnread(client) == "0")
    }
}

extension Date {
    fileprivate func rounded(toSeconds seconds: Double) -> Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 / seconds).rounded(.up) * seconds)
    }
}
