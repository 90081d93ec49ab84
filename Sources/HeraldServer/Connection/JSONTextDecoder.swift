import HeraldProtocol
import NIOCore

/// What the decoder hands on: a request text, or what went wrong with the stream.
enum FramedText {
    case request(RequestText)
    /// A line that is not a JSON object or array, skipped up to its newline.
    case garbage(preview: String)
    /// A text past `--max-request-bytes`: answered, then the connection closes.
    case tooLarge(limit: Int)
    /// The input ended inside a text.
    case truncated(preview: String)
}

/// Frames a connection's bytes into JSON texts (``JSONTextFramer``), handing each on as
/// its parsed value or as a slice of the cumulation buffer — never a copy.
///
/// A single-step decoder: ``InboundTexts`` asks it for one text at a time, when the
/// connection is ready to answer it; it also works in a `ByteToMessageHandler`.
struct JSONTextDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = FramedText

    private(set) var framer: JSONTextFramer

    init(maxTextBytes: Int, maxDepth: Int) {
        framer = JSONTextFramer(maxTextBytes: maxTextBytes, maxDepth: maxDepth)
    }

    mutating func decode(buffer: inout ByteBuffer) -> FramedText? {
        let step = buffer.withUnsafeReadableBytes { framer.next(in: $0) }
        return take(step, from: &buffer)
    }

    mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) -> FramedText? {
        let step = buffer.withUnsafeReadableBytes { framer.finish(in: $0) }
        return take(step, from: &buffer)
    }

    private func take(_ step: JSONTextFramer.Step, from buffer: inout ByteBuffer) -> FramedText? {
        defer { buffer.moveReaderIndex(forwardBy: step.consumed) }
        switch step.event {
        case nil:
            return nil
        case .text(let range, let parsed?):
            return .request(.parsed(parsed, byteCount: range.count))
        case .text(let range, nil):
            return .request(.unparsed(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!))
        case .garbage(let preview):
            return .garbage(preview: preview)
        case .tooLarge(let limit):
            return .tooLarge(limit: limit)
        case .truncated(let preview):
            return .truncated(preview: preview)
        }
    }
}

/// The bytes a connection has read and not yet framed, and the decoder that frames them
/// one text at a time, when the connection is ready for the next.
///
/// Holds at most `--max-request-bytes` plus one read: bytes are released as the decoder
/// scans past them.
struct InboundTexts {
    private var decoder: JSONTextDecoder
    private var buffer: ByteBuffer?

    init(maxTextBytes: Int, maxDepth: Int) {
        decoder = JSONTextDecoder(maxTextBytes: maxTextBytes, maxDepth: maxDepth)
    }

    mutating func append(_ bytes: ByteBuffer) {
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
        } else {
            var bytes = bytes
            buffer!.writeBuffer(&bytes)
        }
    }

    /// The next text, or nil when more bytes are needed.
    mutating func next() -> FramedText? {
        guard var held = buffer else { return nil }
        buffer = nil  // One reference, so that the decoder's moves do not copy.
        defer { buffer = Self.reclaimed(held) }
        return decoder.decode(buffer: &held)
    }

    /// The input ended: a complete text still held, then an unfinished one, then nil.
    mutating func finish() -> FramedText? {
        var held = buffer ?? ByteBuffer()
        buffer = nil
        defer { buffer = Self.reclaimed(held) }
        return decoder.decodeLast(buffer: &held, seenEOF: true)
    }

    /// True when part of a text is held: the peer is in the middle of a request.
    var hasPartialText: Bool {
        guard let buffer else { return decoder.framer.hasPartialText(in: UnsafeRawBufferPointer(start: nil, count: 0)) }
        return buffer.withUnsafeReadableBytes { decoder.framer.hasPartialText(in: $0) }
    }

    /// What is unfinished, in words for a person; nil between texts.
    var unfinishedText: String? { decoder.framer.unfinishedText }

    /// `held` without the bytes scanned past, when they are worth giving back.
    private static func reclaimed(_ held: ByteBuffer) -> ByteBuffer? {
        if held.readableBytes == 0 { return nil }
        var held = held
        if held.readerIndex >= 4096, held.readerIndex >= held.readableBytes {
            held.discardReadBytes()
        }
        return held
    }
}
