import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 49, finding 5: `subscribe-notifications` with `since` on connections that do not
/// read buffered about 135 MB for 1,000 subscriptions, kept after they closed. A
/// presenter's events now go through its bounded outbox, and its uid's presenters share a
/// bound; a closed presenter's memory is given back.
@Suite("Missed notifications' buffers, end to end")
struct MissedBuffersEndToEndTests {
    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test("Batches of 1,000 subscriptions with since on connections that do not read hold a bounded share, given back")
    func subscriptionsThatDoNotRead() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        let body = String(repeating: "b", count: 6_000)
        for index in 0..<20 {
            let params: JSONValue = ["app": "org.example.shop", "identifier": .string("o-\(index)"), "content": ["title": "Shop", "body": .string(body)]]
            #expect(try client.call("update-content", params)[pointer: "/result"] != nil)
        }
        _ = try client.call("stats")
        let before = Self.residentKiB(herald.process.pid)
        let request = #"{"jsonrpc":"2.0","id":1,"method":"subscribe-notifications","params":{"uid":"# + "\(getuid())" + #","since":"2000-01-01T00:00:00Z"}}"#
        let batch = "[" + Array(repeating: request, count: 1_000).joined(separator: ",") + "]\n"
        var quiet: [UnixSocketClient] = []
        for _ in 0..<2 {
            let connection = try herald.connect()
            try connection.send(batch)
            quiet.append(connection)
        }
        // Each subscription's missed notifications are 20 × 6 KB, 120 KB; a round trip on
        // another connection, and a moment, for heraldd to take what it reads of them.
        Thread.sleep(forTimeInterval: 2)
        let first = try #require(try quiet[0].readJSON())
        #expect(first[pointer: "/0/result"] != nil, "the batch was answered: \(first.compactText.prefix(200))")
        _ = try client.call("stats")
        let held = Self.residentKiB(herald.process.pid) - before
        #expect(held < 24 * 1024, "before issue 49 about 135 MB a batch; now \(held) KiB")
        #expect(try client.call("get-cooldown", [:])[pointer: "/result"] != nil, "another connection is answered")
        quiet.removeAll()
        Thread.sleep(forTimeInterval: 2.5)
        _ = try client.call("stats")
        let after = Self.residentKiB(herald.process.pid) - before
        #expect(after < 12 * 1024, "given back once they closed: \(after) KiB")
    }
}
