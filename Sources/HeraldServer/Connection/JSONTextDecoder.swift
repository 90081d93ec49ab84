import HeraldProtocol
import NIOCore

/// What the decoder hands on: a request text, or what went wrong with the stream.
///
/// At most 24 bytes, so that `NIOAny` holds it inline: passing a text down the pipeline
/// costs no allocation.
enum FramedText {
    /// A text the framer's parser read on the way (the common case).
    case parsed(ParsedText)
    /// A text framed by balancing brackets (it arrived in pieces, or it is not valid JSON):
    /// its bytes, for the parser to read or reject.
    case unparsed(ByteBuffer)
    /// A line that is not a JSON object or array, skipped up to its newline.
    case garbage(preview: String)
    /// A text past `--max-request-bytes`: answered, then the connection closes.
    case tooLarge(limit: Int)
    /// The input ended inside a text.
    case truncated(preview: String)
    /// The bytes read so far end inside a text: what is unfinished, in words for a person.
    /// Handed on after the texts of a read, so that the connection knows a request is
    /// under way (the read timeout's case); the next text or report supersedes it.
    case underway(String)
}

/// A parsed text and its size, in 21 bytes: its size is kept in 24 bits, so a text of
/// 16 MiB or more is handed on as its bytes instead.
struct ParsedText {
    let value: JSONValue
    private let sizeLow: UInt16
    private let sizeHigh: UInt8

    init?(_ value: JSONValue, byteCount: Int) {
        guard byteCount < 1 << 24 else { return nil }
        self.value = value
        sizeLow = UInt16(truncatingIfNeeded: byteCount)
        sizeHigh = UInt8(truncatingIfNeeded: byteCount >> 16)
    }

    var byteCount: Int { Int(sizeHigh) << 16 | Int(sizeLow) }
}

/// Frames a connection's bytes into JSON texts (``JSONTextFramer``) in a
/// `ByteToMessageHandler`, handing each on as its parsed value or as a slice of the
/// cumulation buffer — never a copy.
///
/// The handler frames everything it reads; a connection that is paused keeps the texts
/// until it answers them (``ConnectionHandler``), and reads nothing more meanwhile.
struct JSONTextDecoder: ByteToMessageDecoder {
    typealias InboundOut = FramedText

    private(set) var framer: JSONTextFramer

    init(maxTextBytes: Int, maxDepth: Int) {
        framer = JSONTextFramer(maxTextBytes: maxTextBytes, maxDepth: maxDepth)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
        let step = buffer.withUnsafeReadableBytes { framer.next(in: $0) }
        return hand(step, from: &buffer, context: context)
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) -> DecodingState {
        let step = buffer.withUnsafeReadableBytes { framer.finish(in: $0) }
        return hand(step, from: &buffer, context: context)
    }

    private func hand(_ step: JSONTextFramer.Step, from buffer: inout ByteBuffer, context: ChannelHandlerContext) -> DecodingState {
        guard let framed = take(step, from: &buffer) else {
            if let unfinished = framer.unfinishedText {
                context.fireChannelRead(wrapInboundOut(.underway(unfinished)))
            }
            return .needMoreData
        }
        context.fireChannelRead(wrapInboundOut(framed))
        return .continue
    }

    private func take(_ step: JSONTextFramer.Step, from buffer: inout ByteBuffer) -> FramedText? {
        defer { buffer.moveReaderIndex(forwardBy: step.consumed) }
        switch step.event {
        case nil:
            return nil
        case .text(let range, let parsed):
            if let parsed, let text = ParsedText(parsed, byteCount: range.count) {
                return .parsed(text)
            }
            return .unparsed(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!)
        case .garbage(let preview):
            return .garbage(preview: preview)
        case .tooLarge(let limit):
            return .tooLarge(limit: limit)
        case .truncated(let preview):
            return .truncated(preview: preview)
        }
    }
}
