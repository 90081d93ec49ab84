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
/// performs what it decides, and owns the timers, the texts that wait and the output.
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = FramedText
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let processor: RequestProcessor
    private let requestContext: RequestContext
    private let readTimeout: TimeAmount
    /// Texts framed while the connection may not answer them (paused, or its output
    /// unread): at most what one read held, as reading stops meanwhile.
    private var waiting = CircularBuffer<FramedText>(initialCapacity: 4)
    /// What the decoder last said is unfinished: part of a request is held.
    private var underway: String?
    private var state = ConnectionStateMachine()
    private var readTimeoutTask: Scheduled<Void>?
    private let pressure: (any IntakePressure)?
    private var stallCheckTask: Scheduled<Void>?
    private let hooks: ConnectionHooks
    /// Responses written since the last flush, sent as one buffer: a client that
    /// pipelines gets the answers to one read in one write, not one buffer each.
    private var output: ByteBuffer?
    /// The response being written, reused from one request to the next (and given up
    /// after a large one, so that an idle connection does not keep a large array).
    private var response: [UInt8] = []

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
    private var hasPartialText: Bool { underway != nil || !waiting.isEmpty }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.isClosing, context.channel.isActive else { return }
        let framed = unwrapInboundIn(data)
        if case .underway(let unfinished) = framed {
            underway = unfinished
            return
        }
        underway = nil
        if waiting.isEmpty, state.mayAnswer, context.channel.isWritable, !pausesForPressure(context: context) {
            handle(framed, context: context)
        } else {
            waiting.append(framed)
        }
    }

    func read(context: ChannelHandlerContext) {
        switch state.readRequested() {
        case .read: context.read()
        case .hold: break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, state.mayAnswer {
            drainFramer(context: context)
            afterFraming(context: context)
            flushOutput(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// After texts were answered: close a draining connection that has nothing left, else
    /// keep the read timeout right.
    private func afterFraming(context: ChannelHandlerContext) {
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
    private func inputClosed(context: ChannelHandlerContext) {
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

    /// Answers the texts that wait, while the connection may.
    private func drainFramer(context: ChannelHandlerContext) {
        while !waiting.isEmpty, state.mayAnswer, context.channel.isWritable, !pausesForPressure(context: context) {
            handle(waiting.removeFirst(), context: context)
        }
    }

    /// True when the results' queue is congested and the connection paused for it.
    private func pausesForPressure(context: ChannelHandlerContext) -> Bool {
        guard let pressure, pressure.isHigh else { return false }
        return pause(for: pressure, context: context)
    }

    /// Pauses until `pressure` is low; false when it is low already.
    private func pause(for pressure: any IntakePressure, context: ChannelHandlerContext) -> Bool {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let registered = pressure.resumeWhenLow {
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.pressureRelieved(context: context)
            }
        }
        guard registered else { return false }
        state.pauseForPressure()
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        flushOutput(context: context)
        scheduleStallCheck(pressure, context: context)
        return true
    }

    /// Asks now and then whether the queue's writer is stuck; if it is, the pause ends (and
    /// the full queue drops and counts: the last resort).
    private func scheduleStallCheck(_ pressure: any IntakePressure, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        stallCheckTask = context.eventLoop.scheduleTask(in: Self.stallCheckInterval) {
            let (handler, context) = loopBound.value
            handler.stallCheckTask = nil
            guard handler.state.isPausedForPressure else { return }
            if !pressure.releaseIfStalled() {
                handler.scheduleStallCheck(pressure, context: context)
            }
        }
    }

    private func pressureRelieved(context: ChannelHandlerContext) {
        guard state.isPausedForPressure else { return }
        stallCheckTask?.cancel()
        stallCheckTask = nil
        resume(after: state.pauseEnded(.pressure(heldRead: false), channelIsActive: context.channel.isActive), context: context)
    }

    /// After a pause: answers the texts that waited, then what happened meanwhile.
    private func resume(after action: ConnectionStateMachine.ResumeAction, context: ChannelHandlerContext) {
        guard case .resume(let inputClosed, let passOnRead) = action else { return }
        drainFramer(context: context)
        if inputClosed {
            self.inputClosed(context: context)
        } else {
            afterFraming(context: context)
        }
        flushOutput(context: context)
        if passOnRead {
            read(context: context)
        }
    }

    private func handle(_ event: FramedText, context: ChannelHandlerContext) {
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

    private func answer(_ text: RequestText, context: ChannelHandlerContext) {
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

    /// Runs `work` on a thread of its own (at the CPU priority `placement` says), with
    /// reading paused; ``replyArrived(_:context:)`` picks up on the event loop.
    private func awaitReply(
        from work: @escaping @Sendable () -> [UInt8]?, on placement: MethodPlacement, context: ChannelHandlerContext
    ) {
        state.awaitReply()
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        flushOutput(context: context)
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let allocator = context.channel.allocator
        let reply: @Sendable () -> Void = {
            // The response (megabytes, for a full listing) is copied into its buffer here,
            // not on the event loop.
            let response = work().map { allocator.buffer(bytes: $0) }
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.replyArrived(response, context: context)
            }
        }
        // A thread under SCHED_IDLE cannot return to normal priority: a new one each time.
        if placement == .idleThread {
            WorkThread.run(named: "herald-request", priority: .idle, reply)
        } else {
            ReusableThreads.requests.run(reply)
        }
    }

    private func replyArrived(_ response: ByteBuffer?, context: ChannelHandlerContext) {
        let action = state.pauseEnded(.awaitingReply, channelIsActive: context.channel.isActive)
        guard action != .none else { return }
        if let response {
            if response.readableBytes >= Self.largeWorkBytes { hooks.largeWorkDone() }
            sendOutput(context: context)
            context.write(wrapOutboundOut(response), promise: nil)
        }
        flushOutput(context: context)
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        resume(after: action, context: context)
    }

    /// Adds a response to the output the next flush sends; past ``outputBytesPerWrite`` it
    /// is passed on at once, so that the channel's writability (the unread-output bound)
    /// keeps up with it.
    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        if bytes.count >= Self.outputBytesPerWrite {
            sendOutput(context: context)
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
            return
        }
        if output == nil {
            output = context.channel.allocator.buffer(capacity: Self.outputBufferCapacity)
        }
        output!.writeBytes(bytes)
        if output!.readableBytes >= Self.outputBytesPerWrite { sendOutput(context: context) }
    }

    /// Passes the responses gathered so far on to the channel, unflushed.
    private func sendOutput(context: ChannelHandlerContext) {
        guard let gathered = output else { return }
        output = nil
        context.write(wrapOutboundOut(gathered), promise: nil)
    }

    /// Sends the gathered responses and flushes.
    private func flushOutput(context: ChannelHandlerContext) {
        sendOutput(context: context)
        context.flush()
    }

    /// A line written to this connection by someone else (a subscription's notification)
    /// leaves after the responses gathered before it.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        sendOutput(context: context)
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        flushOutput(context: context)
    }

    /// Stops reading and closes once every response written so far has left.
    private func closeAfterWrites(context: ChannelHandlerContext) {
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

    /// Arms the read timeout while part of a text is buffered, and disarms it otherwise.
    private func rescheduleReadTimeout(context: ChannelHandlerContext) {
        readTimeoutTask?.cancel()
        readTimeoutTask = nil
        guard hasPartialText else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        readTimeoutTask = context.eventLoop.scheduleTask(in: readTimeout) {
            let (handler, context) = loopBound.value
            handler.readTimedOut(context: context)
        }
    }

    /// Nothing was read for `--idle-timeout`: closes the connection unless the state
    /// machine finds it busy, in which case `IdleStateHandler` asks again a timeout later.
    private func idleTimedOut(context: ChannelHandlerContext) {
        switch state.idleTimedOut(hasPartialText: hasPartialText, holdsSubscription: hooks.holdsSubscription()) {
        case .close:
            hooks.closedIdle()
            closeAfterWrites(context: context)
        case .rearm, .none:
            break
        }
    }

    private func readTimedOut(context: ChannelHandlerContext) {
        guard !state.isClosing else { return }
        let seconds = processor.limits.readTimeout
        // Says what is unbalanced, so that a person at socat sees what they left open.
        let unfinished = underway.map { ": \($0)" } ?? ""
        let error = RPCError(
            .readTimeout,
            reason: "The connection sent part of a request and then nothing for \(seconds) seconds\(unfinished); it is closed."
        )
        write(processor.standaloneError(error, context: requestContext), context: context)
        closeAfterWrites(context: context)
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
