import Foundation
import HeraldCore
import HeraldProtocol
import NIOCore

/// One client connection: answers the JSON texts its ``JSONTextDecoder`` frames, each in
/// order on one line, and enforces the per-connection limits.
///
/// Requests are processed as they are framed, on the connection's event loop, so a
/// connection's responses leave in request order by construction. A request for a method
/// that takes long (`list-notifications`, `suggest-people`, `snapshot`) runs on a thread
/// of its own instead; the connection stops reading until its response is written, which
/// keeps the order, while the event loop goes on serving its other connections.
///
/// The responses to the texts of one read are gathered into one buffer and written once,
/// at the flush that ends the read (or every ``outputBytesPerWrite``); a line written by
/// another part of the server (a subscription's) leaves after what was gathered before it.
///
/// Output is bounded: while more than `--max-unread-bytes` wait unread in the socket, the
/// connection reads nothing more and answers none of the texts it has framed, so a client
/// that does not read cannot make Herald build responses for it.
///
/// Back-pressure: while the queue the results go to is congested (``IntakePressure``,
/// the journal writer's queue in heraldd), the connection answers none of its framed texts
/// and holds back the channel's reads, so the kernel's socket buffers push back on the
/// client; the queue's writer resumes it, on this event loop, once it has room again.
/// Nothing waits on the event loop.
///
/// At shutdown (``DrainConnection``) a connection answers what it has already sent —
/// whatever is in the socket buffer is read first — and a connection that has not sent its
/// first request yet is waited for, so that a client that connected while the daemon
/// stopped is answered rather than reset.
///
/// The rules of pausing, draining and closing are ``ConnectionStateMachine``'s; this class
/// performs what it decides, and owns the timers, the texts that wait and the output
/// (its parts: `ConnectionHandler+Pauses`, `+Output`, `+Timeouts`).
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = FramedText
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let processor: RequestProcessor
    let requestContext: RequestContext
    let readTimeout: TimeAmount
    /// Texts framed while the connection may not answer them (paused, or its output
    /// unread): at most what one read held, as reading stops meanwhile.
    var waiting = CircularBuffer<FramedText>(initialCapacity: 4)
    /// What the decoder last said is unfinished: part of a request is held.
    var underway: String?
    var state = ConnectionStateMachine()
    var readTimeoutTask: Scheduled<Void>?
    let pressure: (any IntakePressure)?
    var stallCheckTask: Scheduled<Void>?
    let hooks: ConnectionHooks
    /// Responses written since the last flush, sent as one buffer: a client that
    /// pipelines gets the answers to one read in one write, not one buffer each.
    var output: ByteBuffer?
    /// The response being written, reused from one request to the next (and given up
    /// after a large one, so that an idle connection does not keep a large array).
    var response: [UInt8] = []

    init(processor: RequestProcessor, context: RequestContext, hooks: ConnectionHooks = ConnectionHooks()) {
        self.processor = processor
        self.requestContext = context
        self.hooks = hooks
        self.pressure = processor.recorder.pressure
        self.readTimeout = .nanoseconds(Int64(processor.limits.readTimeout * 1_000_000_000))
    }

    /// The connection's handlers, in pipeline order: NIO's `IdleStateHandler` when
    /// `--idle-timeout` is set (it counts reads only: timing writes costs a promise each),
    /// the framer, then this.
    static func pipeline(
        processor: RequestProcessor, context: RequestContext, hooks: ConnectionHooks = ConnectionHooks()
    ) -> [any ChannelHandler] {
        let limits = processor.limits
        let decoder = JSONTextDecoder(maxTextBytes: limits.maxRequestBytes, maxDepth: limits.maxDepth)
        var handlers: [any ChannelHandler] = []
        if limits.idleTimeout > 0 {
            handlers.append(IdleStateHandler(readTimeout: .nanoseconds(Int64(limits.idleTimeout * 1_000_000_000))))
        }
        handlers.append(ByteToMessageHandler(decoder))
        handlers.append(ConnectionHandler(processor: processor, context: context, hooks: hooks))
        return handlers
    }

    /// True when part of a request is held, or texts wait to be answered.
    var hasPartialText: Bool { underway != nil || !waiting.isEmpty }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.isClosing, context.channel.isActive else { return }
        let framed = unwrapInboundIn(data)
        if case .underway(let unfinished) = framed {
            underway = unfinished
            return
        }
        underway = nil
        if waiting.isEmpty, answersNextText(context: context) {
            handle(framed, context: context)
        } else {
            waiting.append(framed)
        }
    }

    /// After texts were answered: close a draining connection that has nothing left, else
    /// keep the read timeout right.
    func afterFraming(context: ChannelHandlerContext) {
        switch state.afterFraming(hasPartialText: hasPartialText) {
        case .close: closeAfterWrites(context: context)
        case .rescheduleReadTimeout: rescheduleReadTimeout(context: context)
        case .none: break
        }
    }

    /// The end of a read: the texts it held are answered (or wait).
    func channelReadComplete(context: ChannelHandlerContext) {
        guard !state.isClosing else { return }
        flushOutput(context: context)
        switch state.afterFraming(hasPartialText: hasPartialText) {
        case .close:
            // NIO goes on with the read after this returns (at the end of input, it shuts
            // the input side, which asserts the channel is still registered): close on the
            // next turn of the event loop.
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.closeAfterWrites(context: context)
            }
        case .rescheduleReadTimeout:
            rescheduleReadTimeout(context: context)
        case .none:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            inputClosed(context: context)
        case IdleStateHandler.IdleStateEvent.read:
            idleTimedOut(context: context)
        case is DrainConnection:
            // Not a word yet, or a text under way, or paused: it is answered, then the
            // connection closes (the server's drain timeout bounds the wait).
            guard state.drainRequested(hasPartialText: hasPartialText) == .closeAfterGrace else { return }
            // Bytes already in the socket buffer are read before the close: one turn of
            // the event loop's selector delivers them to channelRead, which answers them.
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: Self.drainReadGrace) {
                let (handler, context) = loopBound.value
                handler.afterFraming(context: context)
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The client shut down its write side: answer what is left, then close.
    func inputClosed(context: ChannelHandlerContext) {
        // The decoder has handed on the last texts already; only waiting ones are left.
        switch state.inputClosed() {
        case .finishAndClose:
            while !waiting.isEmpty, state.mayAnswer {
                handle(waiting.removeFirst(), context: context)
            }
            closeAfterWrites(context: context)
        case .later, .none:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        stallCheckTask?.cancel()
        stallCheckTask = nil
        waiting.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer or a failed write: nothing is left to answer on this connection.
        context.close(promise: nil)
    }

    func handle(_ event: FramedText, context: ChannelHandlerContext) {
        switch event {
        case .parsed(let text):
            answer(.parsed(text.value, byteCount: text.byteCount), context: context)
        case .unparsed(let bytes):
            answer(.unparsed(bytes), context: context)
        case .underway:
            break  // Taken in channelRead; it never waits.
        case .garbage(let preview):
            let reason = "A request must be a JSON object or array; the line beginning \(quoted(preview)) was skipped."
            write(processor.standaloneError(RPCError(.parseError, reason: reason), context: requestContext), context: context)
        case .truncated(let preview):
            let reason = "The input ended inside a JSON text beginning \(quoted(preview))."
            write(processor.standaloneError(RPCError(.parseError, reason: reason), context: requestContext), context: context)
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

    func answer(_ text: RequestText, context: ChannelHandlerContext) {
        state.textFramed()
        if text.byteCount >= Self.largeWorkBytes { hooks.largeWorkDone() }
        switch processor.reply(to: text, context: requestContext, appendingTo: &response) {
        case .now:
            guard !response.isEmpty else { break }
            if response.count >= Self.largeWorkBytes { hooks.largeWorkDone() }
            write(response, context: context)
            if response.capacity > Self.responseArrayCapacity {
                response = []
                response.reserveCapacity(Self.responseArrayCapacity)
            } else {
                response.removeAll(keepingCapacity: true)
            }
        case .offEventLoop(let placement, let work):
            awaitReply(from: work, on: placement, context: context)
        }
    }

    /// Stops reading and closes once every response written so far has left.
    func closeAfterWrites(context: ChannelHandlerContext) {
        guard state.close() else { return }
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        // Writes leave in order: once this empty one has, every response before it has.
        sendOutput(context: context)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func quoted(_ preview: String) -> String {
        let trimmed = preview.trimmingCharacters(in: .whitespacesAndNewlines)
        return "\"\(trimmed)\""
    }
}

extension ConnectionHandler {
    /// How long a draining connection that has been answered waits for bytes already in
    /// its socket buffer to be read: a few turns of the event loop.
    static let drainReadGrace = TimeAmount.milliseconds(20)
    /// How often a connection paused for back-pressure asks whether the queue is stuck.
    static let stallCheckInterval = TimeAmount.milliseconds(250)
    /// A request or response at least this large asks for freed memory to be returned to
    /// the system (see ``MemoryTrim``).
    static let largeWorkBytes = 256 << 10
    /// The room a buffer of gathered responses starts with: sixteen `donate` answers.
    static let outputBufferCapacity = 2048
    /// The room of the array a response is written into, kept between requests.
    static let responseArrayCapacity = 4096
    /// Gathered responses are passed on once they reach this many bytes.
    static let outputBytesPerWrite = 16 << 10
}

/// What a connection asks of the server around it.
struct ConnectionHooks: Sendable {
    /// Whether the connection holds a `focus-changed` subscription.
    var holdsSubscription: @Sendable () -> Bool = { false }
    /// Called when the idle timeout closes the connection.
    var closedIdle: @Sendable () -> Void = {}
    /// Called after a large request or response.
    var largeWorkDone: @Sendable () -> Void = {}
}

/// Asks a connection to finish the request it is reading (if any) and close: the daemon
/// is shutting down.
struct DrainConnection: Sendable {}
