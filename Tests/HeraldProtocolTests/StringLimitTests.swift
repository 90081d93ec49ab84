import Testing

@testable import HeraldProtocol

@Suite("The limit on a string's bytes")
struct StringLimitTests {
    @Test("points at the first string past the limit, through objects and arrays, escaping names")
    func pointer() throws {
        let params = try JSONTape.parse(Array(#"{"app":"ok","a/b":[{"x":"12345"},"123456"],"z":"123456"}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 6) == nil)
        #expect(params.pointerToString(longerThan: 5) == "/a~1b/1")
        #expect(params.pointerToString(longerThan: 4) == "/a~1b/0/x")
    }

    @Test("counts UTF-8 bytes, not characters")
    func bytes() throws {
        let params = try JSONTape.parse(Array(#"{"name":"ééé"}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 6) == nil)
        #expect(params.pointerToString(longerThan: 5) == "/name")
    }

    @Test("a member's name past the limit is pointed at by its object, so the pointer stays short")
    func longName() throws {
        let params = try JSONTape.parse(Array(#"{"userInfo":{"\#(String(repeating: "k", count: 100))":1}}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 50) == "/userInfo")
        let error = try #require(RPCError.stringTooLong(in: params, maxBytes: 50))
        #expect(error.code == .invalidParams)
        #expect(error.pointer == "/userInfo")
        #expect(error.extraData["limit"] == 50)
        #expect(RPCError.stringTooLong(in: params, maxBytes: 100) == nil)
    }
}
