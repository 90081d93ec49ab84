import NIOCore

/// Answers a connection Herald cannot serve (past `--max-connections` or
/// `--max-connections-per-uid`) with one error line, then closes it.
///
/// The line is written and the output shut down at once, but the connection is closed only
/// when the client closes or after ``lingering``: closing with the client's request unread
/// would reset the connection, and a client that wrote its request first could lose the
/// line before reading it. Whatever the client sends is discarded.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a refused connection may stay half-open for its client to read the line.
    static let lingering = TimeAmount.seconds(2)

    private let line: [UInt8]

    init(line: [UInt8]) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: line))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        context.eventLoop.scheduleTask(in: Self.lingering) {
            channel.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the refused client sends is not read.
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
