import HeraldProtocol
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// The decoder in a `ByteToMessageHandler`, as NIO runs decoders, on an `EmbeddedChannel`.
@Suite("JSONTextDecoder")
struct JSONTextDecoderTests {
    /// What came out, as text: `parsed {…}`, `unparsed {…}`, `garbage …`, `tooLarge`, `truncated …`,
    /// `underway …`.
    private func decoded(_ chunks: [String], maxTextBytes: Int = 1 << 20) throws -> [String] {
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(JSONTextDecoder(maxTextBytes: maxTextBytes, maxDepth: 64))
        )
        var out: [String] = []
        func collect() throws {
            while let frame = try channel.readInbound(as: FramedText.self) {
                switch frame {
                case .parsed(let tape): out.append("parsed \(tape.byteCount) \(tape)")
                case .unparsed(let bytes): out.append("unparsed \(String(buffer: bytes))")
                case .garbage(let preview): out.append("garbage \(preview)")
                case .tooLarge(let limit): out.append("tooLarge \(limit)")
                case .truncated(let preview): out.append("truncated \(preview)")
                case .underway(let unfinished): out.append("underway \(unfinished)")
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
        #expect(
            out == [
                #"parsed 13 {"a":[1,"x"]}"#, "underway an object opened at byte 14 was never closed",
                #"unparsed {"b":2}"#, "parsed 6 [true]",
            ]
        )
    }

    @Test("Invalid JSON is handed on as its bytes, for the parser to say what is wrong; garbage and the end are reported")
    func invalidAndGarbage() throws {
        let out = try decoded([#"{"a" 1} hello"# + "\n", #"[1,"#])
        #expect(
            out == [
                #"unparsed {"a" 1}"#, "garbage hello", "underway an array opened at byte 14 was never closed",
                "truncated [1,",
            ]
        )
    }

    @Test("A text past the limit is reported once, and nothing after it")
    func tooLarge() throws {
        let out = try decoded(["[1,2,3,4,5,6] [1]"], maxTextBytes: 8)
        #expect(out == ["tooLarge 8"])
    }

    @Test("A read that ends inside a text says so after the texts it held, once per read")
    func underwayAfterEachRead() throws {
        let out = try decoded([#"[1] {"a":["#, #""x"#, #""]}"# + "\n", "hello"])
        #expect(
            out == [
                "parsed 3 [1]", "underway an object opened at byte 4 was never closed (2 levels still open)",
                "underway an object opened at byte 4 was never closed (2 levels still open, inside a string)",
                #"unparsed {"a":["x"]}"#,
                "underway a line that is not a JSON object or array has no newline yet", "garbage hello",
            ]
        )
    }

    @Test("A framed text fits in NIOAny's inline storage, so handing it on allocates nothing")
    func framedTextFitsInline() {
        #expect(MemoryLayout<FramedText>.size <= 3 * MemoryLayout<Int>.size)
    }
}
