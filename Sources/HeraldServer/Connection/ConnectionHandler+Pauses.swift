import HeraldCore
import HeraldProtocol
import NIOCore

/// Pauses: a reply computed off the event loop, back-pressure from the results' queue,
/// output the client has not read. While paused the connection answers nothing and reads
/// nothing more; ``ConnectionStateMachine`` says when a pause ends and what follows.
extension ConnectionHandler {
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

    /// Answers the texts that wait, while the connection may.
    func drainFramer(context: ChannelHandlerContext) {
        while !waiting.isEmpty, answersNextText(context: context) {
            handle(waiting.removeFirst(), context: context)
        }
    }

    /// Whether the next text is answered now, as the state machine says; pauses for
    /// back-pressure when it says so.
    func answersNextText(context: ChannelHandlerContext) -> Bool {
        let pressureIsHigh = pressure?.isHigh ?? false
        switch state.nextText(channelIsWritable: context.channel.isWritable, pressureIsHigh: pressureIsHigh) {
        case .answer:
            return true
        case .wait:
            return false
        case .pauseForPressure:
            guard let pressure else { return true }
            return !pause(for: pressure, context: context)
        }
    }

    /// Pauses until `pressure` is low; false when it is low already.
    func pause(for pressure: any IntakePressure, context: ChannelHandlerContext) -> Bool {
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
    func scheduleStallCheck(_ pressure: any IntakePressure, context: ChannelHandlerContext) {
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

    func pressureRelieved(context: ChannelHandlerContext) {
        guard state.isPausedForPressure else { return }
        stallCheckTask?.cancel()
        stallCheckTask = nil
        resume(after: state.pauseEnded(.pressure(heldRead: false), channelIsActive: context.channel.isActive), context: context)
    }

    /// After a pause: answers the texts that waited, then what happened meanwhile.
    func resume(after action: ConnectionStateMachine.ResumeAction, context: ChannelHandlerContext) {
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

    /// Runs `work` on a thread of its own (at the CPU priority `placement` says), with
    /// reading paused; ``replyArrived(_:context:)`` picks up on the event loop.
    func awaitReply(
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

    func replyArrived(_ response: ByteBuffer?, context: ChannelHandlerContext) {
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
}
