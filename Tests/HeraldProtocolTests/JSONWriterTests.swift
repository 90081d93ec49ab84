import Testing

@testable import HeraldProtocol

@Suite("JSONValue writing")
struct JSONWriterTests {
    @Test("writes compactly, in member order, numbers as their literal")
    func compact() {
        let value: JSONValue = [
            "z": [1, true, nil, "s"],
            "a": .number(JSONNumber(literal: "1.50")),
            "e": .object(JSONObject()),
            "f": [],
        ]
        #expect(value.compactText == #"{"z":[1,true,null,"s"],"a":1.50,"e":{},"f":[]}"#)
    }

    @Test("escapes quotes, backslashes and control characters, not '/' or non-ASCII")
    func escaping() {
        let value = JSONValue.string("a\"b\\c/d\n\r\t\u{8}\u{c}\u{0}\u{1f}é😀")
        #expect(value.compactText == #""a\"b\\c/d\n\r\t\b\f\u0000\u001fé😀""#)
        let key: JSONValue = ["k\"\n": 1]
        #expect(key.compactText == #"{"k\"\n":1}"#)
    }

    @Test("escapes a byte wherever it falls among the eight-byte words the writer scans")
    func escapingAtEveryPlace() throws {
        let special: [(Character, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1f}", #"\u001f"#),
        ]
        // Bytes just outside the escaped ranges, which a word-wide test could mistake.
        let plain: [Character] = [" ", "!", "#", "[", "]", "\u{7f}", "é", "a"]
        for length in 0...20 {
            for filler in plain {
                let text = String(repeating: filler, count: length)
                #expect(JSONValue.string(text).compactText == "\"" + text + "\"")
            }
            for place in 0..<length {
                for (character, escaped) in special {
                    for filler in plain {
                        var text = String(repeating: filler, count: length)
                        let index = text.index(text.startIndex, offsetBy: place)
                        text.replaceSubrange(index...index, with: String(character))
                        let expected =
                            "\"" + String(repeating: filler, count: place) + escaped
                            + String(repeating: filler, count: length - place - 1) + "\""
                        #expect(JSONValue.string(text).compactText == expected)
                    }
                }
            }
        }
    }

    @Test("what is written parses back to the same value")
    func roundTrip() throws {
        let text = #"{"id":"x","n":[-0,1e400,1.50],"s":"\u0001 \"q\" / é 😀 \\","o":{"a":{"b":[[],{}]}},"t":true,"f":false,"z":null}"#
        let value = try JSONParser.parse(text)
        #expect(value.compactText == text)
        #expect(try JSONParser.parse(value.compactText) == value)
    }

    @Test("write(to:) appends to what the buffer holds")
    func appends() {
        var buffer = Array("prefix ".utf8)
        JSONValue.array(["a", 1]).write(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix ["a",1]"#)
    }
}
