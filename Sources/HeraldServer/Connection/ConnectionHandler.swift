import FoundationEssentials
import HeraldCore
import HeraldProtocol
import NIOCore

/// One client connection: answers the JSON texts its ``JSONTextDecoder`` frames, each in
/// order on one line, and enforces the per-connection limits.
///
/// Requests are processed as they are framed, on the connection's event loop, so a
/// connection's responses leave in request order by construction. A request for a method
/// that takes long (`list-notifications`, `suggest-people`, `snapshot`) runs on a thread
/// of its own instead (``OffLoopReply``); the connection stops reading until its response
/// is written, which keeps the order, while the event loop serves its other connections.
///
/// The responses to the texts of one read are gathered and written once, at the flush that
/// ends the read (``ConnectionOutput``); a line written by another part of the server (a
/// subscription's) leaves after what was gathered before it.
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
/// Every decision — answering, reading, pausing, flushing, closing — is
/// ``ConnectionStateMachine``'s; this class performs the actions it returns, and owns the
/// timers, the texts that wait and the output.
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = FramedText
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let processor: RequestProcessor
    private let requestContext: RequestContext
    private let readTimeout: TimeAmount
    private let pressure: (any IntakePressure)?
    // Shared with `+Pauses`: the machine that decides every step, the timers and the hooks.
    let hooks: ConnectionHooks
    var state = ConnectionStateMachine()
    /// Texts framed while the connection may not answer them (paused, or its output
    /// unread): at most what one read held, as reading stops meanwhile.
    private var waiting = CircularBuffer<FramedText>(initialCapacity: 4)
    /// What the decoder last said is unfinished: part of a request is held.
    private var underway: String?
    private var output = ConnectionOutput()
    /// The array a response is written into, reused from one request to the next. Not a
    /// member of `output`: a method may write to this connection (a subscription's line)
    /// while its response is being written, which would access `output` twice at once.
    private var response: [UInt8] = []
    /// `--read-timeout` and the stall check.
    var timers = ConnectionTimers()

    init(processor: RequestProcessor, context: RequestContext, hooks: ConnectionHooks = ConnectionHooks()) {
        self.processor = processor
        self.requestContext = context
        self.hooks = hooks
        self.pressure = processor.recorder.pressure
        self.readTimeout = .nanoseconds(Int64(processor.limits.readTimeout * 1_000_000_000))
    }

    /// True when part of a request is held, or texts wait to be answered.
    private var hasPartialText: Bool { underway != nil || !waiting.isEmpty }

    // MARK: Inbound

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

    func channelReadComplete(context: ChannelHandlerContext) {
        hooks.requestsRead()
        guard case .flush(let then) = state.readComplete(hasPartialText: hasPartialText) else { return }
        flushOutput(context: context)
        switch then {
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
            switch state.idleTimedOut(hasPartialText: hasPartialText, holdsSubscription: hooks.holdsSubscription()) {
            case .close:
                hooks.closedIdle()
                closeAfterWrites(context: context)
            case .rearm, .none:
                break  // `IdleStateHandler` asks again a timeout later.
            }
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

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if state.writabilityChanged(isWritable: context.channel.isWritable) == .answerWaiting {
            answerWaiting(context: context)
            afterFraming(context: context)
            flushOutput(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timers.disarmAll()
        waiting.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer or a failed write: nothing is left to answer on this connection.
        context.close(promise: nil)
    }

    // MARK: Outbound

    func read(context: ChannelHandlerContext) {
        switch state.readRequested() {
        case .read: context.read()
        case .hold: break
        }
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

    // MARK: Answering

    /// Whether the next text is answered now, as the state machine says; pauses for
    /// back-pressure when it says so (and answers after all if the queue eased meanwhile).
    private func answersNextText(context: ChannelHandlerContext) -> Bool {
        switch state.nextText(channelIsWritable: context.channel.isWritable, pressureIsHigh: pressure?.isHigh ?? false) {
        case .answer:
            return true
        case .wait:
            return false
        case .pauseForPressure:
            guard let pressure else { return true }
            return !pause(for: pressure, context: context)
        }
    }

    /// Answers the texts that wait, while the connection may.
    func answerWaiting(context: ChannelHandlerContext) {
        while !waiting.isEmpty, answersNextText(context: context) {
            handle(waiting.removeFirst(), context: context)
        }
    }

    private func handle(_ event: FramedText, context: ChannelHandlerContext) {
        switch event {
        case .parsed(let tape):
            answer(.parsed(tape), context: context)
        case .unparsed(let bytes):
            answer(.unparsed(bytes), context: context)
        case .underway:
            break  // Taken in channelRead; it never waits.
        case .garbage(let preview):
            write(processor.standaloneError(.garbageLine(beginning: preview), context: requestContext), context: context)
        case .truncated(let preview):
            write(processor.standaloneError(.truncatedText(beginning: preview), context: requestContext), context: context)
        case .tooLarge(let limit):
            write(processor.standaloneError(.requestTooLarge(limit: limit), context: requestContext), context: context)
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
            ConnectionOutput.clear(&response)
        case .offEventLoop(let placement, let work):
            guard state.awaitReply() == .flushAndStopReading else { return }
            stopReadingUntilReply(context: context)
            OffLoopReply.run(work, on: placement, handler: self, context: context)
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

    // MARK: Output

    /// Adds a response to the output, as the state machine says.
    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        switch state.output(forResponseOf: bytes.count, gathered: output.gatheredBytes) {
        case .gather:
            output.gather(bytes, allocator: context.channel.allocator)
        case .gatherAndSend:
            output.gather(bytes, allocator: context.channel.allocator)
            sendOutput(context: context)
        case .sendGatheredThenWrite:
            sendOutput(context: context)
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
    }

    /// Passes the responses gathered so far on to the channel, unflushed.
    func sendOutput(context: ChannelHandlerContext) {
        guard let gathered = output.takeGathered() else { return }
        context.write(wrapOutboundOut(gathered), promise: nil)
    }

    func flushOutput(context: ChannelHandlerContext) {
        sendOutput(context: context)
        context.flush()
    }

    /// Stops reading and closes once every response written so far has left.
    private func closeAfterWrites(context: ChannelHandlerContext) {
        guard state.close() == .closeAfterWrites else { return }
        timers.disarmReadTimeout()
        // Writes leave in order: once this empty one has, every response before it has.
        sendOutput(context: context)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

extension ConnectionHandler {
    /// Arms `--read-timeout` while part of a text is held, and disarms it otherwise.
    private func rescheduleReadTimeout(context: ChannelHandlerContext) {
        guard hasPartialText else {
            timers.disarmReadTimeout()
            return
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timers.armReadTimeout(in: readTimeout, on: context.eventLoop) {
            let (handler, context) = loopBound.value
            guard !handler.state.isClosing else { return }
            let error = RPCError.readTimedOut(after: handler.processor.limits.readTimeout, unfinished: handler.underway)
            handler.write(handler.processor.standaloneError(error, context: handler.requestContext), context: context)
            handler.closeAfterWrites(context: context)
        }
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
}
