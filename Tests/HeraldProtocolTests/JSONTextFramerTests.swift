import Testing

@testable import HeraldProtocol

@Suite("JSONTextFramer")
struct JSONTextFramerTests {
    /// Every event the framer yields for `chunks`, appended one after another, then finished.
    private func events(_ chunks: [[UInt8]], framer: HeldJSONTexts = HeldJSONTexts(), finish: Bool = true) -> [HeldJSONTexts.Framed] {
        var framer = framer
        var events: [HeldJSONTexts.Framed] = []
        for chunk in chunks {
            framer.append(chunk)
            while let event = framer.next() {
                events.append(event)
            }
        }
        if finish {
            while let event = framer.finish() {
                events.append(event)
            }
        }
        return events
    }

    private func text(_ string: String) -> HeldJSONTexts.Framed {
        .text(Array(string.utf8))
    }

    @Test("several texts in one chunk, with whitespace between and around")
    func severalInOneChunk() {
        let input = " {\"a\":1}\n[1,2]\r\n\t{}  [] "
        #expect(events([Array(input.utf8)]) == [text("{\"a\":1}"), text("[1,2]"), text("{}"), text("[]")])
    }

    @Test("a text split byte by byte comes out once, whole")
    func byteByByte() {
        let input = #"{"jsonrpc":"2.0","method":"x","params":{"s":"a}\"]["},"id":1} [true]"#
        var framer = HeldJSONTexts()
        var events: [HeldJSONTexts.Framed] = []
        var partialSeen = false
        for byte in input.utf8 {
            framer.append([byte])
            partialSeen = partialSeen || framer.hasPartialText
            while let event = framer.next() {
                events.append(event)
            }
        }
        #expect(partialSeen)
        #expect(!framer.hasPartialText)
        #expect(events == [text(#"{"jsonrpc":"2.0","method":"x","params":{"s":"a}\"]["},"id":1}"#), text("[true]")])
        #expect(framer.finish() == nil)
    }

    @Test("a pretty-printed text spans lines")
    func prettyPrinted() {
        let input = "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n{\"b\":2}\n"
        #expect(events([Array(input.utf8)]) == [text("{\n  \"a\": [\n    1,\n    2\n  ]\n}"), text("{\"b\":2}")])
    }

    @Test("brackets inside strings do not count, escaped quotes and backslashes included")
    func bracketsInStrings() {
        let input = #"["]", "\\", "\"[", "{\\\"}"]{"k]":"}"}"#
        #expect(events([Array(input.utf8)]) == [text(#"["]", "\\", "\"[", "{\\\"}"]"#), text(#"{"k]":"}"}"#)])
    }

    @Test("a closer of the wrong kind ends the malformed text, and the rest of its line is skipped")
    func mismatchedCloser() {
        let input = #"[{"a":1},{"method"]  trailing ] junk"# + "\n{\"ok\":1}\n"
        #expect(events([Array(input.utf8)]) == [text(#"[{"a":1},{"method"]"#), text(#"{"ok":1}"#)])
        // Split across appends, and with nothing after it before the input ends.
        #expect(events([Array("{\"a\":".utf8), Array("]".utf8)]) == [text(#"{"a":]"#)])
    }

    @Test("a garbage line is skipped up to its newline, then texts resume")
    func garbage() {
        let chunks = [Array("hello wor".utf8), Array("ld {\"x\":1}\r\n{\"ok\":true}".utf8)]
        #expect(events(chunks) == [.garbage(preview: "hello world {\"x\":1}"), text("{\"ok\":true}")])
        let long = String(repeating: "z", count: 100) + "\n[]"
        #expect(events([Array(long.utf8)]) == [.garbage(preview: String(repeating: "z", count: 40)), text("[]")])
    }

    @Test("a garbage line without a newline waits, and finish() reports it as garbage")
    func garbageAtEnd() {
        var framer = HeldJSONTexts()
        framer.append(Array("[1] nope".utf8))
        #expect(framer.next() == text("[1]"))
        #expect(framer.next() == nil)
        #expect(framer.hasPartialText)
        #expect(framer.finish() == .garbage(preview: "nope"))
        #expect(framer.finish() == nil)
    }

    @Test("a text deeper than maxDepth is framed whole for the parser to refuse, and the next text is read")
    func tooDeep() throws {
        let framer = HeldJSONTexts(maxDepth: 3)
        let input = "[[[]]] [[[[\"]]]]\"]]]] {\"a\":[[1]]}"
        let expected = [text("[[[]]]"), text("[[[[\"]]]]\"]]]]"), text("{\"a\":[[1]]}")]
        #expect(events([Array(input.utf8)], framer: framer) == expected)
        let split = input.utf8.map { [$0] }
        #expect(events(split, framer: framer) == expected)
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("[[[[\"]]]]\"]]]]", maxDepth: 3) }
        #expect(error?.isDepthExceeded == true)
    }

    @Test("a text past maxTextBytes ends the stream with tooLarge")
    func tooLarge() {
        let framer = HeldJSONTexts(maxTextBytes: 10)
        #expect(events([Array("[1,2,3,4,5]".utf8)], framer: framer) == [.tooLarge(limit: 10)])
        #expect(events([Array("[1,2,3,45]".utf8)], framer: framer) == [text("[1,2,3,45]")])
        let chunks = [Array("[] [1,2,".utf8), Array("3,4,5,6".utf8), Array("] []".utf8)]
        #expect(events(chunks, framer: framer) == [text("[]"), .tooLarge(limit: 10)])
        #expect(events([Array("garbage line".utf8)], framer: framer) == [.tooLarge(limit: 10)])
    }

    @Test("finish() reports a text cut short as truncated")
    func truncated() {
        var framer = HeldJSONTexts()
        framer.append(Array("{\"a\":1} {\"b\":".utf8))
        #expect(framer.hasPartialText)
        #expect(framer.finish() == text("{\"a\":1}"))
        #expect(framer.finish() == .truncated(preview: "{\"b\":"))
        #expect(framer.finish() == nil)
        #expect(events([Array("  \n".utf8)]) == [])
    }

    @Test("scanning stays linear and memory bounded over many texts and chunks")
    func manyTexts() {
        var framer = HeldJSONTexts(maxTextBytes: 64)
        let one = Array(#"{"method":"ping","id":12345}"#.utf8) + [UInt8(ascii: "\n")]
        let stream = Array([[UInt8]](repeating: one, count: 2_000).joined())
        var count = 0
        var offset = 0
        var chunkSize = 1
        while offset < stream.count {
            let end = min(stream.count, offset + chunkSize)
            framer.append(Array(stream[offset..<end]))
            #expect(framer.held.count <= 64 + chunkSize)
            offset = end
            chunkSize = chunkSize % 97 + 1
            while let event = framer.next() {
                #expect(event == .text(Array(one.dropLast())))
                count += 1
            }
        }
        #expect(count == 2_000)
    }
}

extension JSONTextFramerTests {
    @Test func unfinishedTextSaysWhatIsOpenAndWhere() {
        var framer = HeldJSONTexts()
        #expect(framer.framer.unfinishedText == nil)
        framer.append(Array(#"{"a":1}  "#.utf8))
        while framer.next() != nil {}
        #expect(framer.framer.unfinishedText == nil, "between texts nothing is unfinished")
        framer.append(Array(#"[{"b":"x"#.utf8))
        while framer.next() != nil {}
        #expect(framer.framer.unfinishedText == "an array opened at byte 9 was never closed (2 levels still open, inside a string)")
        framer.append(Array(#""}]"#.utf8) + [0x0A])
        while framer.next() != nil {}
        #expect(framer.framer.unfinishedText == nil)
        framer.append(Array("hello".utf8))
        while framer.next() != nil {}
        #expect(framer.framer.unfinishedText == "a line that is not a JSON object or array has no newline yet")
    }
}
