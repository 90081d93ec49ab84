import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 49, finding 8, on the desktop: a burst (an undo of hundreds) brings herald-notify
/// more than it takes in time, and heraldd skips what does not fit with one
/// `events-skipped`. herald-notify tells the person of the skipped alerts in one quiet
/// bubble, reads the list afresh, and closes the bubbles of notifications whose removal was
/// among the skipped.
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyBurstEndToEndTests {
    static let app = "org.example.shop"
    static let burst = 300

    @Test func skippedEventsAreToldAndRemovedBubblesClose() throws {
        let heraldd = try HeraldProcess(.standalone, arguments: ["--max-unread-bytes", "16384"])
        let session = try DesktopSession()
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let client = try heraldd.connect()
        // One bubble on screen, whose removal will be skipped.
        let gone: JSONValue = ["app": .string(Self.app), "identifier": "gone", "content": ["title": "Order shipped"]]
        #expect(try client.call("update-content", gone)[pointer: "/result"] != nil)
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        // The burst's notifications, removed before herald-notify sees them: only the undo shows them.
        let body = String(repeating: "b", count: 3_000)
        for index in 0..<Self.burst {
            let params: JSONValue = ["app": "org.example.news", "identifier": .string("n-\(index)"), "content": ["title": "Story", "body": .string(body)]]
            #expect(try client.call("update-content", params)[pointer: "/result"] != nil)
        }
        #expect(try client.call("remove-notifications", ["app": "org.example.news", "all": true])[pointer: "/result/removed"] == .number(JSONNumber(Self.burst)))
        // A stopped herald-notify reads nothing: the undo's burst fills what heraldd holds
        // for it, and the removal after it is skipped too.
        _ = session.wait(timeout: 20) { session.displayedCount <= 1 }
        notify.process.signal(SIGSTOP)
        #expect(try client.call("restore-notifications", [:])[pointer: "/result/restored"] == .number(JSONNumber(Self.burst)))
        #expect(try client.call("remove-notifications", ["app": .string(Self.app), "identifiers": ["gone"]])[pointer: "/result/removed"] == 1)
        notify.process.signal(SIGCONT)

        #expect(notify.waitForLog(containing: "reading the lists afresh"), "\(notify.stderr)")
        #expect(notify.waitForLog(containing: "closing 1 bubbles of notifications no longer delivered"), "\(notify.stderr)")
        var told: [String: Any]?
        _ = session.wait(timeout: 30) {
            session.closeAll()
            told = session.history().first { ($0["summary"] as? String)?.hasSuffix("not shown as they came") == true }
            return told != nil
        }
        let summary = try #require(told?["summary"] as? String, "\(notify.stderr)")
        // The bubble adds up the skipped alerts while it is shown (the posting before the
        // undo may have skipped some too, and a bubble dunst let expire starts again).
        let count = Int(summary.prefix { $0.isNumber }) ?? 0
        let skippedAlerts = notify.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: " alerts) of a burst") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: "(").last ?? "")
        }
        #expect(count > 0 && count <= skippedAlerts.reduce(0, +), "\(summary); \(notify.stderr)")
        #expect(told?["body"] as? String == "They are in your notification list: heraldctl notifications list")
        #expect(told?["appname"] as? String == "Herald")
        #expect((told?["message"] as? String)?.hasPrefix("urgency=low ") == true, "\(String(describing: told))")

        // Still presenting: the next notification is a bubble again.
        session.closeAll()
        let after: JSONValue = ["app": .string(Self.app), "identifier": "after", "content": ["title": "Delivered"]]
        #expect(try client.call("update-content", after)[pointer: "/result"] != nil)
        #expect(session.wait(timeout: 20) { session.history().contains { $0["summary"] as? String == "Delivered" } || session.displayedCount >= 1 }, "\(notify.stderr)")
        #expect(notify.stop() == 0)
    }
}
