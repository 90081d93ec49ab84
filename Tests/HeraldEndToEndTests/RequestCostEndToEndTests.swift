import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// No request costs more than linear time in its size, and none holds the state for
/// long: the identical-retry check of a donation with an 88,000-member call record took
/// 20 s, and every other client waited as long.
@Suite("Request cost, end to end")
struct RequestCostEndToEndTests {
    /// Latencies of one client's sequential requests, taken on a thread of its own.
    final class LatencyProbe: @unchecked Sendable {
        private let lock = NSLock()
        private var latencies: [Double] = []
        private var failures: [String] = []
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)

        func start(socket: String) {
            Thread.detachNewThread { [self] in
                defer { done.signal() }
                do {
                    let client = try UnixSocketClient(path: socket)
                    var id = 0
                    while !lock.withLock({ stopped }) {
                        id += 1
                        let began = DispatchTime.now().uptimeNanoseconds
                        let response = try client.call("request-focus", ["app": "org.example.other"], id: .number(JSONNumber(id)))
                        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
                        lock.withLock {
                            latencies.append(seconds)
                            if response[pointer: "/result"] == nil { failures.append(response.compactText) }
                        }
                    }
                } catch {
                    lock.withLock { failures.append("\(error)") }
                }
            }
        }

        /// Stops the client; its latencies in seconds and its failures.
        func stop() -> (latencies: [Double], failures: [String]) {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { (latencies, failures) }
        }
    }

    /// A call donation whose `callRecordToCallBack` has `members` members (`"k00000":0`,
    /// 11 bytes each), as one request line.
    static func hugeDonation(members: Int, id: Int) -> String {
        var record = "{"
        record.reserveCapacity(members * 12)
        for index in 0..<members {
            if index > 0 { record += "," }
            record += "\"k\(String(format: "%05d", index))\":\(index % 10)"
        }
        record += "}"
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"org.example.phone","interaction":{"identifier":"k-huge","direction":"incoming","intent":{"type":"startCall","contacts":[{"handle":{"value":"bo","type":"phoneNumber"}}],"callRecordToCallBack":\#(record)}}}}"#
    }

    @Test("An 88,000-member retry answers in well under a second while another client is served")
    func hugeRetry() throws {
        let herald = try HeraldProcess(.standalone)
        let donation = Self.hugeDonation(members: 88_000, id: 1)
        #expect(donation.utf8.count > 960_000 && donation.utf8.count < 1 << 20, "\(donation.utf8.count) bytes")
        let client = try herald.connect()
        try client.send(donation + "\n")
        let first = try #require(try client.readJSON(timeout: 120))
        #expect(first[pointer: "/result/identifier"] == "k-huge", "\(first.compactText.prefix(300))")

        let probe = LatencyProbe()
        probe.start(socket: herald.socketPath)
        usleep(200_000)
        let began = DispatchTime.now().uptimeNanoseconds
        try client.send(donation + "\n")
        let retry = try #require(try client.readJSON(timeout: 120))
        let retrySeconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        usleep(200_000)
        let (latencies, failures) = probe.stop()

        #expect(retry[pointer: "/result/identifier"] == "k-huge", "\(retry.compactText.prefix(300))")
        #expect(retry[pointer: "/result/donatedAt"] == first[pointer: "/result/donatedAt"])
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let sorted = latencies.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
            "88k-member retry: \(String(format: "%.3f", retrySeconds)) s (parse and decode included); other client: \(sorted.count) requests, p99 \(String(format: "%.2f", p99 * 1000)) ms, max \(String(format: "%.2f", (sorted.last ?? 0) * 1000)) ms"
        )
        // Generous bounds on a shared machine, against 20 s before.
        #expect(retrySeconds < 5)
        #expect((sorted.last ?? 0) < 5)

        // A retry with one member changed is a conflict, not a retry.
        try client.send(Self.hugeDonation(members: 88_000, id: 2).replacingOccurrences(of: "\"k87999\":9", with: "\"k87999\":8") + "\n")
        let changed = try #require(try client.readJSON(timeout: 120))
        #expect(changed[pointer: "/error/code"] == 1007, "\(changed.compactText.prefix(300))")
    }

    @Test("A retry of a call record with duplicate names is a retry, not 1007")
    func duplicateNames() throws {
        let herald = try HeraldProcess(.standalone)
        let client = try herald.connect()
        let line = #"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"app":"org.example.phone","interaction":{"identifier":"k-dup","direction":"incoming","intent":{"type":"startCall","contacts":[{"handle":{"value":"bo"}}],"callRecordToCallBack":{"a":1,"a":2}}}}}"#
        for _ in 0..<2 {
            try client.send(line + "\n")
            let response = try #require(try client.readJSON())
            #expect(response[pointer: "/result/identifier"] == "k-dup", "\(response.compactText)")
        }
    }

    @Test("A string longer than --max-string-bytes is -32602 at its member; stats counts it")
    func longString() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--max-string-bytes", "1000"])
        let client = try herald.connect()
        let name = String(repeating: "n", count: 1001)
        let response = try client.call(
            "donate",
            [
                "app": "org.example.chat",
                "interaction": [
                    "direction": "incoming",
                    "intent": [
                        "type": "sendMessage", "conversationIdentifier": "c",
                        "sender": ["handle": ["value": "ann"], "displayName": .string(name)],
                    ],
                ],
            ]
        )
        #expect(response[pointer: "/error/code"] == -32602, "\(response.compactText.prefix(300))")
        #expect(response[pointer: "/error/data/pointer"] == "/interaction/intent/sender/displayName")
        #expect(response[pointer: "/error/data/limit"] == 1000)
        let stats = try client.call("stats")
        #expect(stats[pointer: "/result/limits/stringBytes/refused"] == 1, "\(stats.compactText)")
        #expect(stats[pointer: "/result/limits/stringBytes/limit"] == 1000)
    }
}
