import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// What makes `socat` and request files work: the framing of a connection's byte stream.
@Suite("Framing, end to end")
struct FramingEndToEndTests {
    @Test("socat gets the answer to a one-line request")
    func socatOneLine() throws {
        let herald = try HeraldProcess()
        let output = try socat(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"# + "\n", to: herald.socketPath)
        let lines = output.split(separator: "\n")
        try #require(lines.count == 1)
        let response = try IndependentJSON.parse(String(lines[0]))
        #expect(response[pointer: "/id"] == .number(JSONNumber(1)))
        #expect(response[pointer: "/result/connections/open"] != nil)
    }

    @Test("A pretty-printed request file piped through socat gets one compact line per request")
    func prettyPrintedFile() throws {
        let herald = try HeraldProcess()
        let file = """
            {
              "jsonrpc": "2.0",
              "id": "first",
              "method": "stats"
            }
            {
                "jsonrpc": "2.0",
                "id": "second",
                "method": "rpc.discover"
            }
            """
        let output = try socat(file, to: herald.socketPath)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        try #require(lines.count == 2)
        #expect(try IndependentJSON.parse(String(lines[0]))[pointer: "/id"] == "first")
        #expect(try IndependentJSON.parse(String(lines[1]))[pointer: "/id"] == "second")
        #expect(!lines[0].contains("\n") && !lines[0].contains(": "))
    }

    @Test("A request split across two writes, and several in one write, are each answered in order")
    func splitAndCoalesced() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc":"2.0","me"#)
        usleep(200_000)
        try client.send(
            #"thod":"stats","id":1}"# + #"{"jsonrpc":"2.0","method":"stats","id":2} [{"jsonrpc":"2.0","method":"stats","id":3}]"#)
        #expect(try client.readJSON()?[pointer: "/id"] == .number(JSONNumber(1)))
        #expect(try client.readJSON()?[pointer: "/id"] == .number(JSONNumber(2)))
        #expect(try client.readJSON()?[pointer: "/0/id"] == .number(JSONNumber(3)))
    }

    @Test("A garbage line gets a parse error and the stream recovers at the next line")
    func garbageLine() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send("hello there {\"x\": [\n" + #"{"jsonrpc":"2.0","method":"stats","id":"ok"}"# + "\n")
        let first = try #require(try client.readJSON())
        #expect(first[pointer: "/error/code"] == .number(JSONNumber(-32700)))
        #expect(first[pointer: "/error/data/reason"]?.stringValue?.contains("hello there") == true)
        let second = try #require(try client.readJSON())
        #expect(second[pointer: "/id"] == "ok")
    }

    @Test("A client that shuts down its write side still receives every response")
    func halfClose() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let requests = (1...50).map { #"{"jsonrpc":"2.0","method":"stats","id":\#($0)}"# }.joined(separator: "\n")
        try client.send(requests + "\n" + #"{"jsonrpc":"2.0","#)
        client.shutdownWrite()
        for id in 1...50 {
            #expect(try client.readJSON()?[pointer: "/id"] == .number(JSONNumber(id)))
        }
        // The truncated text at the end gets its parse error, then the server closes.
        #expect(try client.readJSON()?[pointer: "/error/code"] == .number(JSONNumber(-32700)))
        #expect(try client.waitForClose())
    }
}
