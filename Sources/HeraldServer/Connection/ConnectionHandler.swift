import Foundation
import HeraldCore
import HeraldProtocol
import NIOCore

/// One client connection: frames the incoming byte stream into JSON texts, answers each
/// in order on one line, and enforces the per-connection limits.
///
/// Requests are processed as they are framed, on the connection's event loop, so a
/// connection's responses leave in request order by construction. A request for a method
/// that takes long (`snapshot`) runs on a thread of its own instead; the connection stops
/// reading until its response is written, which keeps the order, while the event loop
/// goes on serving its other connections.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let processor: RequestProcessor
    private let requestContext: RequestContext
    private let readTimeout: TimeAmount
    private var framer: JSONTextFramer
    private var readTimeoutTask: Scheduled<Void>?
    /// Set once the connection will take no more requests: it closes when its writes are done.
    private var isClosing = false
    /// Set when the daemon shuts down: finish the text being read (bounded), then close.
    private var isDraining = false
    /// Set while a request runs off the event loop: texts wait in the framer.
    private var isAwaitingReply = false
    /// The client shut its write side while a reply was awaited: handled once it arrives.
    private var inputClosedWhileAwaiting = false

    init(processor: RequestProcessor, context: RequestContext) {
        self.processor = processor
        self.requestContext = context
        self.readTimeout = .nanoseconds(Int64(processor.limits.readTimeout * 1_000_000_000))
        self.framer = JSONTextFramer(
            maxTextBytes: processor.limits.maxRequestBytes,
            maxDepth: processor.limits.maxDepth
        )
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isClosing else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { framer.append($0) }
        drainFramer(context: context)
        if !isClosing, !isAwaitingReply {
            if isDraining, !framer.hasPartialText {
                closeAfterWrites(context: context)
            } else {
                rescheduleReadTimeout(context: context)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed where isAwaitingReply:
            inputClosedWhileAwaiting = true
        case is DrainConnection where isAwaitingReply:
            isDraining = true
        case ChannelEvent.inputClosed:
            // The client shut down its write side: answer what is left, then close.
            if !isClosing, let last = framer.finish() {
                handle(last, context: context)
            }
            closeAfterWrites(context: context)
        case is DrainConnection:
            isDraining = true
            if !framer.hasPartialText {
                closeAfterWrites(context: context)
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer or a failed write: nothing is left to answer on this connection.
        context.close(promise: nil)
    }

    private func drainFramer(context: ChannelHandlerContext) {
        while !isClosing, !isAwaitingReply, let event = framer.next() {
            handle(event, context: context)
        }
    }

    private func handle(_ event: FramingEvent, context: ChannelHandlerContext) {
        switch event {
        case .text(let text):
            switch processor.reply(to: text, context: requestContext) {
            case .now(let response?):
                write(response, context: context)
            case .now(nil):
                break
            case .offEventLoop(let work):
                awaitReply(from: work, context: context)
            }
        case .garbage(let preview):
            let reason = "A request must be a JSON object or array; the line beginning \(quoted(preview)) was skipped."
            write(processor.standaloneError(RPCError(.parseError, reason: reason), context: requestContext), context: context)
        case .truncated(let preview):
            let reason = "The input ended inside a JSON text beginning \(quoted(preview))."
            write(processor.standaloneError(RPCError(.parseError, reason: reason), context: requestContext), context: context)
        case .tooDeep(let limit):
            let error = RPCError(
                .invalidRequest,
                reason: "The request nests arrays and objects deeper than \(limit) levels.",
                extraData: ["limit": .number(JSONNumber(limit))]
            )
            write(processor.standaloneError(error, context: requestContext), context: context)
        case .tooLarge(let limit):
            let error = RPCError(
                .invalidRequest,
                reason: "The request is larger than \(limit) bytes; the connection is closed.",
                extraData: ["limit": .number(JSONNumber(limit))]
            )
            write(processor.standaloneError(error, context: requestContext), context: context)
            closeAfterWrites(context: context)
        }
    }

    /// Runs `work` on a thread of its own at a lower CPU priority, with reading paused;
    /// ``replyArrived(_:context:)`` picks up on the event loop.
    private func awaitReply(from work: @escaping @Sendable () -> [UInt8]?, context: ChannelHandlerContext) {
        isAwaitingReply = true
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        context.flush()
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        LowPriorityThread.run(named: "herald-request") {
            let response = work()
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.replyArrived(response, context: context)
            }
        }
    }

    private func replyArrived(_ response: [UInt8]?, context: ChannelHandlerContext) {
        isAwaitingReply = false
        guard context.channel.isActive, !isClosing else { return }
        if let response {
            write(response, context: context)
        }
        context.flush()
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        drainFramer(context: context)
        if inputClosedWhileAwaiting {
            inputClosedWhileAwaiting = false
            userInboundEventTriggered(context: context, event: ChannelEvent.inputClosed)
        } else if !isClosing, !isAwaitingReply {
            if isDraining, !framer.hasPartialText {
                closeAfterWrites(context: context)
            } else {
                rescheduleReadTimeout(context: context)
            }
        }
        context.flush()
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        context.write(wrapOutboundOut(buffer), promise: nil)
    }

    /// Stops reading and closes once every response written so far has left.
    private func closeAfterWrites(context: ChannelHandlerContext) {
        guard !isClosing else { return }
        isClosing = true
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        // Writes leave in order: once this empty one has, every response before it has.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// Arms the read timeout while part of a text is buffered, and disarms it otherwise.
    private func rescheduleReadTimeout(context: ChannelHandlerContext) {
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        guard framer.hasPartialText else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        readTimeoutTask = context.eventLoop.scheduleTask(in: readTimeout) {
            let (handler, context) = loopBound.value
            handler.readTimedOut(context: context)
        }
    }

    private func readTimedOut(context: ChannelHandlerContext) {
        guard !isClosing else { return }
        let seconds = processor.limits.readTimeout
        let error = RPCError(
            .readTimeout,
            reason: "The connection sent part of a request and then nothing for \(seconds) seconds; it is closed."
        )
        write(processor.standaloneError(error, context: requestContext), context: context)
        closeAfterWrites(context: context)
    }

    private func quoted(_ preview: String) -> String {
        let trimmed = preview.trimmingCharacters(in: .whitespacesAndNewlines)
        return "\"\(trimmed)\""
    }
}

/// Asks a connection to finish the request it is reading (if any) and close: the daemon
/// is shutting down.
struct DrainConnection: Sendable {}
