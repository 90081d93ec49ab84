import HeraldProtocol
import NIOCore

/// What the decoder hands on: a request text, or what went wrong with the stream.
///
/// At most 24 bytes, so that `NIOAny` holds it inline: passing a text down the pipeline
/// costs no allocation.
enum FramedText {
    /// A text the framer's parser read on the way (the common case), with its bytes.
    case parsed(JSONTape)
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

/// Frames a connection's bytes into JSON texts (``JSONTextFramer``) in a
/// `ByteToMessageHandler`, handing each on as its tape (which holds a copy of the text's
/// bytes) or, when the framer could not parse it on the way, as a slice of the cumulation
/// buffer.
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
            if let parsed {
                return .parsed(parsed)
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
