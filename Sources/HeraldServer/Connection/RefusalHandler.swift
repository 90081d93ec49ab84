import NIOCore

/// Answers a connection Herald cannot serve (past `--max-connections`) with one error
/// line, then closes it.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: [UInt8]

    init(line: [UInt8]) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: line))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the refused client sends is not read.
    }
}
