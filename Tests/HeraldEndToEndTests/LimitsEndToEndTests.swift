import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Each limit is answered with a JSON-RPC error, and other clients never notice.
@Suite("Limits, end to end")
struct LimitsEndToEndTests {
    @Test("A request over --max-request-bytes is answered, then its connection closed; others go on")
    func requestSize() throws {
        let herald = try HeraldProcess(arguments: ["--max-request-bytes", "1000"])
        let bystander = try herald.connect()
        let client = try herald.connect()
        let padding = String(repeating: "x", count: 2000)
        try client.send(#"{"jsonrpc":"2.0","method":"stats","id":1,"params":{"pad":""# + padding + "\"}}\n")
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/error/data/limit"] == .number(JSONNumber(1000)))
        #expect(try client.waitForClose())
        #expect(try bystander.call("stats")[pointer: "/result"] != nil)
    }

    @Test("Nesting deeper than --max-depth gets -32600 and the connection goes on")
    func depth() throws {
        let herald = try HeraldProcess(arguments: ["--max-depth", "8"])
        let client = try herald.connect()
        let deep =
            #"{"jsonrpc":"2.0","method":"stats","id":1,"params":{"a":"# + String(repeating: "[", count: 8)
            + String(repeating: "]", count: 8) + "}}\n"
        try client.send(deep)
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/error/data/limit"] == .number(JSONNumber(8)))
        #expect(try client.call("stats", id: 2)[pointer: "/id"] == .number(JSONNumber(2)))
    }

    @Test("A batch longer than --max-batch gets one -32600")
    func batchLength() throws {
        let herald = try HeraldProcess(arguments: ["--max-batch", "3"])
        let client = try herald.connect()
        let element = #"{"jsonrpc":"2.0","method":"stats","id":1}"#
        try client.send("[" + Array(repeating: element, count: 4).joined(separator: ",") + "]\n")
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/error/data/limit"] == .number(JSONNumber(3)))
        try client.send("[" + Array(repeating: element, count: 3).joined(separator: ",") + "]\n")
        #expect(try client.readJSON()?.arrayValue?.count == 3)
    }

    @Test("Past --max-connections a new connection gets -32000 and is closed; the others go on")
    func connectionCount() throws {
        let herald = try HeraldProcess(arguments: ["--max-connections", "2"])
        let first = try herald.connect()
        let second = try herald.connect()
        _ = try first.call("stats")
        _ = try second.call("stats")
        let third = try herald.connect()
        let refusal = try #require(try third.readJSON())
        #expect(refusal[pointer: "/error/code"] == .number(JSONNumber(-32000)))
        #expect(try third.waitForClose())
        #expect(try first.call("stats", id: 2)[pointer: "/id"] == .number(JSONNumber(2)))
    }

    @Test("A connection that sends part of a request and then nothing is closed after --read-timeout")
    func readTimeout() throws {
        let herald = try HeraldProcess(arguments: ["--read-timeout", "1"])
        let idle = try herald.connect()
        _ = try idle.call("stats")
        let client = try herald.connect()
        try client.send(#"{"jsonrpc":"2.0","#)
        let response = try #require(try client.readJSON(timeout: 5))
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32001)))
        #expect(
            response[pointer: "/error/data/reason"]?.stringValue?.contains("an object opened at byte 0 was never closed") == true,
            "the reason says what is unbalanced: \(response)"
        )
        #expect(try client.waitForClose())
        // A connection with nothing half-sent is not closed.
        usleep(1_500_000)
        #expect(try idle.call("stats", id: 3)[pointer: "/id"] == .number(JSONNumber(3)))
    }
}
