import Testing

@testable import HeraldProtocol

@Suite("The limit on a string's bytes")
struct StringLimitTests {
    @Test("points at the first string past the limit, through objects and arrays, escaping names")
    func pointer() throws {
        let params = try JSONTape.parse(Array(#"{"app":"ok","a/b":[{"x":"12345"},"123456"],"z":"123456"}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 6)?.pointer == nil)
        #expect(params.pointerToString(longerThan: 5)?.pointer == "/a~1b/1")
        #expect(params.pointerToString(longerThan: 4)?.pointer == "/a~1b/0/x")
    }

    @Test("counts UTF-8 bytes, not characters")
    func bytes() throws {
        let params = try JSONTape.parse(Array(#"{"name":"ééé"}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 6)?.pointer == nil)
        #expect(params.pointerToString(longerThan: 5)?.pointer == "/name")
    }

    @Test("a member's name past the limit is pointed at by its object, so the pointer stays short")
    func longName() throws {
        let params = try JSONTape.parse(Array(#"{"userInfo":{"\#(String(repeating: "k", count: 100))":1}}"#.utf8)).root
        #expect(params.pointerToString(longerThan: 50)?.pointer == "/userInfo")
        let error = try #require(RPCError.stringTooLong(in: params, maxBytes: 50))
        #expect(error.code == .invalidParams)
        #expect(error.pointer == "/userInfo")
        #expect(error.extraData["limit"] == 50)
        #expect(RPCError.stringTooLong(in: params, maxBytes: 100) == nil)
    }

    /// Issue 45, item 10: an image's base64 `data` is held to the image's own bound (256 KiB
    /// decoded), not `--max-string-bytes`, and a longer one is told to use a file: URL.
    @Test("an image's data has a bound of its own")
    func imageData() throws {
        let avatar = String(repeating: "A", count: 140_000)
        let params = try JSONTape.parse(Array(#"{"image":{"data":"\#(avatar)","mimeType":"image/png"},"title":"\#(String(repeating: "t", count: 20))"}"#.utf8)).root
        let title = try #require(RPCError.stringTooLong(in: params, maxBytes: 16))
        #expect(title.pointer == "/title" && title.extraData["limit"] == 16, "other strings keep --max-string-bytes")
        #expect(RPCError.stringTooLong(in: params, maxBytes: 20) == nil, "a 140 KB avatar fits")
        let huge = String(repeating: "A", count: RPCError.imageDataBytes + 4)
        let tooBig = try JSONTape.parse(Array(#"{"image":{"data":"\#(huge)"}}"#.utf8)).root
        let error = try #require(RPCError.stringTooLong(in: tooBig, maxBytes: 16_384))
        #expect(error.pointer == "/image/data" && error.extraData["limit"] == .number(JSONNumber(349_528)))
        #expect(error.reason.contains("file: URL"), "\(error.reason)")
        #expect(RPCError.imageDataBytes == 349_528)
    }
}
