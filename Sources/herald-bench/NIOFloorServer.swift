import Foundation
import NIOCore
import NIOPosix

/// The framework's floor: a plain SwiftNIO server on a Unix socket that answers each
/// request line with ``FloorAnswer``'s canned line, as the bare-socket floor does.
///
/// It has what any NIO server has — an event loop per core, a channel per connection, a
/// handler that frames lines and writes the answers to one read in one flush — and nothing
/// of Herald's, so Herald over it measures Herald's own work, and it over the bare-socket
/// floor measures what the framework costs.
struct NIOFloorServer {
    let socketPath: String
    let answer: FloorAnswer

    func run() throws -> Never {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let answer = self.answer
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 4096)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineAnswerHandler(answer: answer))
                }
            }
        unlink(socketPath)
        let channel = try bootstrap.bind(unixDomainSocketPath: socketPath).wait()
        FileHandle.standardError.write(
            Data("nio-floor: serving on \(socketPath), \(answer.responseBytes)-byte answers, \(System.coreCount) event loops\n".utf8)
        )
        try channel.closeFuture.wait()
        exit(0)
    }
}

/// Frames request lines out of the byte stream and writes each one's answer.
private final class LineAnswerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answer: FloorAnswer
    /// Bytes of a line not yet ended.
    private var pending: ByteBuffer?
    private var output: [UInt8] = []
    private var ids: [Range<Int>] = []

    init(answer: FloorAnswer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if var partial = pending {
            partial.writeBuffer(&buffer)
            buffer = partial
            pending = nil
        }
        let consumed = buffer.withUnsafeReadableBytes { bytes -> Int in
            var lineStart = 0
            while let newline = bytes[lineStart...].firstIndex(of: 0x0A) {
                answer.append(answering: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline]), ids: &ids, to: &output)
                lineStart = newline + 1
            }
            return lineStart
        }
        buffer.moveReaderIndex(forwardBy: consumed)
        if buffer.readableBytes > 0 { pending = buffer }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard !output.isEmpty else { return }
        var buffer = context.channel.allocator.buffer(capacity: output.count)
        buffer.writeBytes(output)
        output.removeAll(keepingCapacity: true)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
