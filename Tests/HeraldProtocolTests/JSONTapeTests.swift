import Testing

@testable import HeraldProtocol

/// The tape reads exactly what the parser reads: the same values, the same errors; and its
/// nodes answer members, elements and pointers as a tree would.
@Suite("JSONTape")
struct JSONTapeTests {
    /// Texts valid and not: every case of `JSONParserTests`, and more about names and nesting.
    static let texts: [String] = [
        "[1,2,3]", "[]", "{}", " \n\t\r{ } ", "0", "-0", "\"\"", "true", "false", "null",
        #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"foo": "boo"}]"#,
        "[1.5e+3, -2E-2, 0.0, 1e400, 123456789012345678901234567890]",
        #"["\u00e9\ud83d\ude00 \"\\\/\b\f\n\r\t"]"#,
        #"{"b": 1, "a": {"x": [true, null, {}, []]}, "b": 2, "a\u0062": "escaped name", "": 0}"#,
        #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
        "", "   ", "[1,2,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]",
        "[+1]", "[-]", "[NaN]", "[tru]", "nul", "[1] [2]", "[1]x", "'a'", "[\"\\x\"]", "[\"a\tb\"]",
        "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[\"\\u12G4\"]", "[\"abc", "{\"a\":",
        "[[[[[]]]]]", #"{"a":[{"b":{}}]}"#, "[\"\u{7f}é\"]",
    ]

    @Test("parses to the parser's value, or fails with the parser's error", arguments: texts)
    func agreesWithTheParser(_ text: String) {
        let bytes = Array(text.utf8)
        let tape = Result { () throws(JSONParseError) in try JSONTape.parse(bytes, maxDepth: 4) }
        let tree = Result { () throws(JSONParseError) in try JSONParser.parse(bytes, maxDepth: 4) }
        switch (tape, tree) {
        case (.success(let tape), .success(let value)):
            #expect(tape.root.value == value)
            #expect(tape.root.value.compactText == value.compactText)
        case (.failure(let tapeError), .failure(let treeError)):
            #expect(tapeError == treeError)
        default:
            Issue.record("The tape and the parser disagree on \(text)")
        }
    }

    @Test("rejects invalid UTF-8 as the parser does", arguments: [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]])
    func rejectsInvalidUTF8(_ sequence: [UInt8]) {
        let bytes: [UInt8] = Array("{\"a".utf8) + sequence + Array("\":1}".utf8)
        let tapeError = #expect(throws: JSONParseError.self) { try JSONTape.parse(bytes) }
        let treeError = #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        #expect(tapeError == treeError)
    }

    @Test("a prefix is read whole, as the framer's one pass needs, and keeps only its bytes")
    func prefix() throws {
        let bytes = Array(#"{"a":[1,"x"]} {"b":2}"#.utf8)
        let (tape, length) = try #require(bytes.withUnsafeBytes { JSONTape.parsePrefix($0, maxDepth: 64) })
        #expect(length == 13)
        #expect(tape.byteCount == 13)
        #expect(tape.root.value == ["a": [1, "x"]])
        let unfinished = Array(#"{"a":[1,"#.utf8)
        #expect(unfinished.withUnsafeBytes { JSONTape.parsePrefix($0, maxDepth: 64) } == nil)
    }

    @Test("members: the last of a name wins, escaped names match, and subtrees are skipped")
    func members() throws {
        let root = try JSONTape.parse(Array(#"{"b": {"b": 9}, "x": [1, {"b": 8}], "\u0062": 2, "é": "e"}"#.utf8)).root
        #expect(root.count == 4)
        #expect(root[member: "b"]?.value == 2)
        #expect(root[member: "é"]?.stringValue == "e")
        #expect(root[member: "c"] == nil)
        #expect(root.members.map(\.name) == ["b", "x", "b", "é"])
        #expect(root[member: "x"]?.elements.map(\.value) == [1, ["b": 8]])
        #expect(root[member: "x"]?[member: "b"] == nil)
        #expect(root[member: "b"]?.stringEquals("2") == false)
        #expect(root[member: "é"]?.stringEquals("e") == true)
    }

    @Test("a pointer is found from the value, from its root, with the root's own pointer first")
    func pointers() throws {
        let root = try JSONTape.parse(Array(#"{"params": {"a/b": [{"x": 1}, {"~y": [true, "s"]}]}}"#.utf8)).root
        let params = try #require(root[member: "params"])
        let deep = try #require(params[member: "a/b"]?.elements[1][member: "~y"]?.elements[1])
        #expect(deep.pointer == "/params/a~1b/1/~0y/1")
        #expect(params.asRoot[member: "a/b"]?.elements[1][member: "~y"]?.elements[1].pointer == "/a~1b/1/~0y/1")
        #expect(params.asRoot.pointer == "")
        #expect(params.asRoot.pointer(toMember: "z") == "/z")
        let prefixed = JSONTape(["k": [false]], rootPointer: "/payload").root
        #expect(prefixed[member: "k"]?.elements[0].pointer == "/payload/k/0")
    }

    @Test("the first string too long is found as the tree finds it, escapes counted decoded")
    func longStrings() throws {
        let root = try JSONTape.parse(Array(#"{"ok": "abc", "list": [1, "\u00e9\u00e9\u00e9"], "long": "abcdefg"}"#.utf8)).root
        // "ééé" is 6 bytes of UTF-8 but 18 of escapes.
        #expect(root.pointerToString(longerThan: 7)?.pointer == nil)
        #expect(root.pointerToString(longerThan: 6)?.pointer == "/long")
        #expect(root.pointerToString(longerThan: 5)?.pointer == "/list/1")
        let name = try JSONTape.parse(Array(#"{"outer": {"a-long-name": 1}}"#.utf8)).root
        #expect(name.pointerToString(longerThan: 6)?.pointer == "/outer")
    }

    @Test("a value built in memory makes the same tape as its text")
    func fromValue() throws {
        let value: JSONValue = ["n": 1.5, "s": "q\"uote", "a": [nil, true, ["x": "y"]], "e": [:]]
        #expect(JSONTape(value).root.value == value)
        #expect(JSONTape(value) == (try JSONTape.parse(Array(value.compactText.utf8))))
    }
}
