import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 11, item 3: a response is bounded before it is built, output a client does not
/// read is bounded, and memory returns near its baseline after oversized inputs.
@Suite("Bounded responses and memory, end to end")
struct ResponseBoundsEndToEndTests {
    private func batch(_ count: Int, method: String) -> String {
        "[" + (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"\#(method)"}"# }.joined(separator: ",") + "]\n"
    }

    @Test("A batch of 1,000 rpc.discover is refused with one short error, none of it run")
    func amplifyingBatchRefused() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(batch(1000, method: "rpc.discover"))
        let line = try #require(try client.readLine(timeout: 30))
        print("response to a batch of 1,000 rpc.discover: \(line.utf8.count) bytes")
        #expect(line.utf8.count < 1000)
        let response = try IndependentJSON.parse(line)
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/error/data/limit"] == .number(JSONNumber(1 << 20)))
        #expect(response[pointer: "/error/data/reason"]?.stringValue?.contains("smaller batches") == true)
        let stats = try client.result("stats")
        #expect(stats[pointer: "/methods/rpc.discover"] == nil)
        #expect(stats[pointer: "/refusedBatches"] == .number(JSONNumber(1)))
    }

    @Test("Past --max-response-bytes while a batch runs, its remaining requests get -32000 and are not run")
    func batchStopsAtTheLimit() throws {
        let herald = try HeraldProcess(arguments: ["--max-response-bytes", "8192"])
        let client = try herald.connect()
        try client.send(batch(50, method: "stats"))
        let line = try #require(try client.readLine(timeout: 30))
        #expect(line.utf8.count < 8192 + 4096 + 50 * 400)
        let responses = try IndependentJSON.parse(line).arrayValue ?? []
        #expect(responses.count == 50)
        #expect(responses.first?[pointer: "/result"] != nil)
        #expect(responses.last?[pointer: "/error/code"] == .number(JSONNumber(-32000)))
        #expect(responses.last?[pointer: "/error/data/limit"] == .number(JSONNumber(8192)))
        let run = responses.filter { $0[pointer: "/result"] != nil }.count
        print("batch of 50 stats under an 8 KiB limit: \(run) run, \(50 - run) refused, \(line.utf8.count) bytes")
        #expect(run > 0 && run < 50)
    }

    @Test("A focus-changed subscriber that does not read is closed once its unread output passes the limit")
    func unreadSubscriberClosed() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "allow", "--max-unread-bytes", "4096", "--max-apps-per-uid", "500"])
        let subscriber = try herald.connect()
        let apps = 500
        let requests = (0..<apps).map {
            #"{"jsonrpc":"2.0","id":\#($0),"method":"request-focus","params":{"app":"org.example.app\#($0)","requestAuthorization":true,"subscribe":true}}"#
        }
        try subscriber.send("[" + requests.joined(separator: ",") + "]\n")
        let subscribed = try #require(try subscriber.readLine(timeout: 30))
        #expect(!subscribed.contains("\"error\""))
        // The subscriber reads no more; every change tells it about 500 apps.
        let admin = try herald.connect()
        var closed = false
        for round in 0..<200 where !closed {
            try admin.result("set-focus", round % 2 == 0 ? json(#"{"focus":{"name":"Work"}}"#) : ["focus": .null])
            closed = try admin.result("stats")[pointer: "/connections/closedUnread"] != .number(JSONNumber(0))
        }
        #expect(closed)
        // What was written before the close can be read, then the connection ends.
        var lines = 0
        while try subscriber.readLine(timeout: 20) != nil { lines += 1 }
        print("unread subscriber closed after \(lines) notification lines")
        #expect(try herald.connect().result("stats")[pointer: "/focusSubscriptions"] == .number(JSONNumber(0)))
    }

    @Test("Resident memory returns near its baseline after oversized inputs")
    func memoryReturns() throws {
        let herald = try HeraldProcess(.standalone)
        _ = try herald.connect().result("stats")
        usleep(1_500_000)
        let baseline = try #require(residentKiB(of: herald.process.pid))
        var peak = baseline
        // Oversized texts (closed at 1 MiB), near-limit batches, amplifying batches, side by side.
        let padding = String(repeating: "x", count: 900_000)
        for _ in 0..<5 {
            let clients = try (0..<8).map { _ in try herald.connect() }
            for (index, client) in clients.enumerated() {
                switch index % 3 {
                // Closed at 1 MiB, maybe before the last bytes are sent.
                case 0: try? client.send("[" + String(repeating: "1,", count: 600_000) + "1]\n")
                case 1: try client.send(#"{"jsonrpc":"2.0","id":1,"method":"stats","params":{"pad":"\#(padding)"}}"# + "\n")
                default: try client.send(batch(1000, method: "rpc.discover"))
                }
            }
            for client in clients { _ = try? client.readLine(timeout: 30) }
            peak = max(peak, residentKiB(of: herald.process.pid) ?? 0)
        }
        // The once-a-second tick trims what the allocator kept.
        usleep(2_500_000)
        let after = try #require(residentKiB(of: herald.process.pid))
        print("heraldd VmRSS: baseline \(baseline) KiB, peak \(peak) KiB, after \(after) KiB")
        #expect(after < baseline + 48 * 1024)
        #expect(try herald.connect().result("stats")[pointer: "/connections"] != nil)
    }
}
