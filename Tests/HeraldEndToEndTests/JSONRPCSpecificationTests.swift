import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// The JSON-RPC 2.0 specification's examples, sent to the real heraldd under socket activation.
@Suite("JSON-RPC 2.0 specification examples, end to end")
struct JSONRPCSpecificationTests {
    @Test("A call to a method that does not exist gets -32601 with its id")
    func methodNotFound() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"# + "\n")
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32601)))
        #expect(response[pointer: "/id"] == "1")
        #expect(response[pointer: "/jsonrpc"] == "2.0")
        #expect(response[pointer: "/error/data/reason"]?.stringValue?.contains("foobar") == true)
    }

    @Test("Invalid JSON gets -32700 with a null id")
    func parseError() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"# + "\n")
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32700)))
        #expect(response[pointer: "/id"] == .null)
        #expect(response[pointer: "/error/data/reason"]?.stringValue?.isEmpty == false)
    }

    @Test("An invalid request object gets -32600 with a null id")
    func invalidRequest() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"# + "\n")
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/id"] == .null)
    }

    @Test("A batch that is invalid JSON gets one -32700")
    func batchParseError() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]"# + "\n"
        )
        let response = try #require(try client.readJSON())
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32700)))
        #expect(response[pointer: "/id"] == .null)
    }

    @Test("An empty batch gets one -32600, not an array")
    func emptyBatch() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send("[]\n")
        let response = try #require(try client.readJSON())
        #expect(response.objectValue != nil)
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(response[pointer: "/id"] == .null)
    }

    @Test("Each non-object batch element gets its own -32600", arguments: ["[1]", "[1,2,3]"])
    func invalidBatchElements(batch: String) throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(batch + "\n")
        let response = try #require(try client.readJSON())
        let elements = try #require(response.arrayValue)
        #expect(elements.count == batch.filter { $0.isNumber }.count)
        for element in elements {
            #expect(element[pointer: "/error/code"] == .number(JSONNumber(-32600)))
            #expect(element[pointer: "/id"] == .null)
        }
    }

    @Test("A mixed batch answers requests in order and skips notifications")
    func mixedBatch() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(
            """
            [
              {"jsonrpc": "2.0", "method": "stats", "id": "1"},
              {"jsonrpc": "2.0", "method": "notify_hello", "params": {"a": 7}},
              {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
              {"foo": "boo"},
              {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
              {"jsonrpc": "2.0", "method": "stats", "id": "9"}
            ]

            """
        )
        let response = try #require(try client.readJSON())
        let elements = try #require(response.arrayValue)
        #expect(elements.count == 5)
        #expect(elements[0][pointer: "/id"] == "1")
        #expect(elements[0][pointer: "/result/uptimeSeconds"] != nil)
        #expect(elements[1][pointer: "/id"] == "2")
        #expect(elements[1][pointer: "/error/code"] == .number(JSONNumber(-32601)))
        #expect(elements[2][pointer: "/id"] == .null)
        #expect(elements[2][pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(elements[3][pointer: "/id"] == "5")
        #expect(elements[3][pointer: "/error/code"] == .number(JSONNumber(-32601)))
        #expect(elements[4][pointer: "/id"] == "9")
    }

    @Test("A batch of notifications gets nothing at all, never []")
    func allNotificationBatch() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"[{"jsonrpc": "2.0", "method": "notify_sum", "params": {"a": 1}},{"jsonrpc": "2.0", "method": "stats"}]"# + "\n")
        try client.send(#"{"jsonrpc": "2.0", "method": "stats", "id": "after"}"# + "\n")
        let line = try #require(try client.readLine())
        #expect(line.hasPrefix("{"))
        let response = try IndependentJSON.parse(line)
        #expect(response[pointer: "/id"] == "after")
    }

    @Test(
        "Ids are echoed exactly: strings, numbers as written, and null",
        arguments: [#""abc""#, "1.50", "-0", "10000000000000000000001", "null"])
    func idEcho(id: String) throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc":"2.0","method":"stats","id":"# + id + "}\n")
        let line = try #require(try client.readLine())
        #expect(line.contains(#""id":"# + id + ","))
        #expect(line.hasSuffix("}"))
    }

    @Test("Positional params get -32602; a missing jsonrpc member gets -32600")
    func paramsByNameOnly() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.send(#"{"jsonrpc":"2.0","method":"stats","params":[1],"id":1}"# + "\n")
        let positional = try #require(try client.readJSON())
        #expect(positional[pointer: "/error/code"] == .number(JSONNumber(-32602)))
        #expect(positional[pointer: "/error/data/pointer"] == "")
        try client.send(#"{"method":"stats","id":2}"# + "\n")
        let noVersion = try #require(try client.readJSON())
        #expect(noVersion[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(noVersion[pointer: "/id"] == .number(JSONNumber(2)))
    }
}
