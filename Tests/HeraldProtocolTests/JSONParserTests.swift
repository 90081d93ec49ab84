import Testing

@testable import HeraldProtocol

@Suite("JSONParser")
struct JSONParserTests {
    @Test(
        "accepts RFC 8259 and JSON-RPC 2.0 texts",
        arguments: [
            "[1,2,3]", "[]", "{}", " \n\t\r{ } ", "0", "-0", "\"\"", "true", "false", "null",
            #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"foo": "boo"}]"#,
            "[1.5e+3, -2E-2, 0.0, 1e400, 123456789012345678901234567890]",
            #"["\u00e9\ud83d\ude00 \"\\\/\b\f\n\r\t"]"#,
        ]
    )
    func accepts(_ text: String) throws {
        _ = try JSONParser.parse(text)
    }

    @Test(
        "rejects invalid texts",
        arguments: [
            #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method""#,
            "", "   ", "[1,2,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]",
            "[+1]", "[-]", "[NaN]", "[tru]", "nul", "[1] [2]", "[1]x", "'a'", "[\"\\x\"]", "[\"a\tb\"]",
            "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[\"\\u12G4\"]", "[\"abc", "{\"a\":",
        ]
    )
    func rejects(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("rejects invalid UTF-8", arguments: [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]])
    func rejectsInvalidUTF8(_ sequence: [UInt8]) {
        let bytes: [UInt8] = Array("[\"a".utf8) + sequence + Array("\"]".utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test("keeps number literals verbatim")
    func numberLiterals() throws {
        let value = try JSONParser.parse("[1.50, -0, 1e400, 10000000000000000000001, 2E-3]")
        #expect(value.arrayValue?.compactMap(\.numberValue?.literal) == ["1.50", "-0", "1e400", "10000000000000000000001", "2E-3"])
    }

    @Test("decodes escapes and surrogate pairs")
    func strings() throws {
        let value = try JSONParser.parse(#"["\ud83d\ude00", "caf\u00E9", "a\"b\\c\/d", "\u0000", "é😀 raw"]"#)
        #expect(value == ["😀", "café", "a\"b\\c/d", "\u{0}", "é😀 raw"])
    }

    @Test("builds objects in order and keeps duplicate keys")
    func objects() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": {"x": [true, null]}, "b": 2}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "b"])
        #expect(object["b"] == 2)
        #expect(object["a"] == ["x": [true, nil]])
    }

    @Test("a depth of exactly maxDepth is accepted, one more is not")
    func depthLimit() throws {
        let atLimit = String(repeating: "[", count: 4) + String(repeating: "]", count: 4)
        _ = try JSONParser.parse(atLimit, maxDepth: 4)
        _ = try JSONParser.parse("[]", maxDepth: 1)
        _ = try JSONParser.parse(#"{"a":[{"b":1}]}"#, maxDepth: 3)
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("[[[[[]]]]]", maxDepth: 4) }
        #expect(error?.isDepthExceeded == true)
        #expect(error?.offset == 4)
        let objectError = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":[{"b":{}}]}"#, maxDepth: 3) }
        #expect(objectError?.isDepthExceeded == true)
    }

    @Test("errors say what was expected and where")
    func errorReasons() {
        let colon = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"jsonrpc" "2.0"}"#) }
        #expect(colon?.reason == "Expected ':' after an object key at byte 11.")
        #expect(colon?.offset == 11)
        #expect(colon?.isDepthExceeded == false)
        let control = #expect(throws: JSONParseError.self) { try JSONParser.parse("[\"a\nb\"]") }
        #expect(control?.offset == 3)
        let surrogate = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"["ab\ud800"]"#) }
        #expect(surrogate?.reason.contains("surrogate") == true)
        #expect(surrogate?.offset == 4)
    }

    @Test("the byte overloads agree with the String one")
    func overloads() throws {
        let text = #"{"id": 1.50, "list": ["x"]}"#
        let bytes = Array(text.utf8)
        let expected = try JSONParser.parse(text)
        #expect(try JSONParser.parse(bytes) == expected)
        let padded: [UInt8] = Array("xx".utf8) + bytes + Array("yy".utf8)
        #expect(try JSONParser.parse(padded[2..<(padded.count - 2)]) == expected)
    }
}
