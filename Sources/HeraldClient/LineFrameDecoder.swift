import NIOCore

/// Splits heraldd's output into its lines: one answer or notification each (Protocol/README.md, Framing).
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// The longest line kept while waiting for its end: heraldd's answers are bounded by
    /// `--max-response-bytes` (1 MiB by default), a summary of many notifications is large,
    /// but nothing is kept without bound.
    static let maximumLineBytes = 64 << 20

    struct LineTooLong: Error {}

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumLineBytes { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
