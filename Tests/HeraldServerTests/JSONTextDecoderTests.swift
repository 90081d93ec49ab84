import HeraldProtocol
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// The decoder in a `ByteToMessageHandler`, as NIO runs decoders, on an `EmbeddedChannel`.
@Suite("JSONTextDecoder")
struct JSONTextDecoderTests {
    /// What came out, as text: `parsed {…}`, `unparsed {…}`, `garbage …`, `tooLarge`, `truncated …`.
    private func decoded(_ chunks: [String], maxTextBytes: Int = 1 << 20) throws -> [String] {
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(JSONTextDecoder(maxTextBytes: maxTextBytes, maxDepth: 64))
        )
        var out: [String] = []
        func collect() throws {
            while let frame = try channel.readInbound(as: FramedText.self) {
                switch frame {
                case .request(.parsed(let value, let count)): out.append("parsed \(count) \(value.compactText)")
                case .request(.unparsed(let bytes)): out.append("unparsed \(String(buffer: bytes))")
                case .garbage(let preview): out.append("garbage \(preview)")
                case .tooLarge(let limit): out.append("tooLarge \(limit)")
                case .truncated(let preview): out.append("truncated \(preview)")
                }
            }
        }
        for chunk in chunks {
            try channel.writeInbound(ByteBuffer(string: chunk))
            try collect()
        }
        _ = try? channel.finish()
        try collect()
        return out
    }

    @Test("A text that arrives whole is parsed in the framing pass; one in pieces is handed on as its bytes")
    func wholeAndPieces() throws {
        let out = try decoded([#"{"a":[1,"x"]} {"b":"#, #"2}"# + "\n", "[true]\n"])
        #expect(out == [#"parsed 13 {"a":[1,"x"]}"#, #"unparsed {"b":2}"#, "parsed 6 [true]"])
    }

    @Test("Invalid JSON is handed on as its bytes, for the parser to say what is wrong; garbage and the end are reported")
    func invalidAndGarbage() throws {
        let out = try decoded([#"{"a" 1} hello"# + "\n", #"[1,"#])
        #expect(out == [#"unparsed {"a" 1}"#, "garbage hello", "truncated [1,"])
    }

    @Test("A text past the limit is reported once, and nothing after it")
    func tooLarge() throws {
        let out = try decoded(["[1,2,3,4,5,6] [1]"], maxTextBytes: 8)
        #expect(out == ["tooLarge 8"])
    }

    @Test("InboundTexts frames one text at a time and knows when a text is under way")
    func inboundTexts() {
        var inbound = InboundTexts(maxTextBytes: 1 << 20, maxDepth: 64)
        inbound.append(ByteBuffer(string: #"[1] [2] {"a":"#))
        #expect(inbound.hasPartialText)
        guard case .request(.parsed(.array, 3)) = inbound.next() else {
            Issue.record("expected the first text")
            return
        }
        guard case .request(.parsed(.array, 3)) = inbound.next() else {
            Issue.record("expected the second text")
            return
        }
        #expect(inbound.next() == nil)
        #expect(inbound.unfinishedText == "an object opened at byte 8 was never closed")
        inbound.append(ByteBuffer(string: "1}\n"))
        guard case .request(.unparsed(let bytes)) = inbound.next() else {
            Issue.record("expected the third text")
            return
        }
        #expect(String(buffer: bytes) == #"{"a":1}"#)
        #expect(!inbound.hasPartialText)
        #expect(inbound.finish() == nil)
    }
}
