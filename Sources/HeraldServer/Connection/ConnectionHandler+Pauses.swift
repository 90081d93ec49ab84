import HeraldCore
import HeraldProtocol
import NIOCore

/// Pauses: a reply computed off the event loop, back-pressure from the results' queue.
/// While paused the connection answers nothing and reads nothing more;
/// ``ConnectionStateMachine`` says when a pause begins and ends and what follows.
extension ConnectionHandler {
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
        guard registered, state.pauseForPressure() == .flushAndCheckForStall else { return false }
        timers.disarmReadTimeout()
        flushOutput(context: context)
        scheduleStallCheck(pressure, context: context)
        return true
    }

    /// Asks now and then whether the queue's writer is stuck; if it is, the pause ends (and
    /// the full queue drops and counts: the last resort).
    private func scheduleStallCheck(_ pressure: any IntakePressure, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timers.armStallCheck(in: Self.stallCheckInterval, on: context.eventLoop) {
            let (handler, context) = loopBound.value
            guard handler.state.stallCheckDue() == .askWhetherStalled else { return }
            if handler.state.stallChecked(released: pressure.releaseIfStalled()) == .scheduleStallCheck {
                handler.scheduleStallCheck(pressure, context: context)
            }
        }
    }

    private func pressureRelieved(context: ChannelHandlerContext) {
        timers.disarmStallCheck()
        resume(after: state.pressureRelieved(channelIsActive: context.channel.isActive), context: context)
    }

    /// After a pause: answers the texts that waited, then what happened meanwhile.
    private func resume(after action: ConnectionStateMachine.ResumeAction, context: ChannelHandlerContext) {
        guard case .resume(let inputClosed, let passOnRead) = action else { return }
        answerWaiting(context: context)
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

    /// While a reply is computed off the event loop: the answers so far leave, and nothing
    /// more is read until the reply is written.
    func stopReadingUntilReply(context: ChannelHandlerContext) {
        timers.disarmReadTimeout()
        flushOutput(context: context)
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    }

    /// The reply computed off the event loop, back on it (``OffLoopReply``).
    func replyArrived(_ response: ByteBuffer?, context: ChannelHandlerContext) {
        guard case .writeAndResume(let resume) = state.replyArrived(channelIsActive: context.channel.isActive) else { return }
        if let response {
            if response.readableBytes >= Self.largeWorkBytes { hooks.largeWorkDone() }
            sendOutput(context: context)
            context.write(wrapOutboundOut(response), promise: nil)
        }
        flushOutput(context: context)
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        self.resume(after: resume, context: context)
    }
}
