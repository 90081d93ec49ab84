import HeraldCore
import HeraldProtocol
import NIOCore

/// Timeouts: `--read-timeout` while part of a request is held (the handler's timer), and
/// `--idle-timeout` (NIO's `IdleStateHandler` says when nothing was read for that long).
extension ConnectionHandler {
    /// Arms the read timeout while part of a text is buffered, and disarms it otherwise.
    func rescheduleReadTimeout(context: ChannelHandlerContext) {
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
    func idleTimedOut(context: ChannelHandlerContext) {
        switch state.idleTimedOut(hasPartialText: hasPartialText, holdsSubscription: hooks.holdsSubscription()) {
        case .close:
            hooks.closedIdle()
            closeAfterWrites(context: context)
        case .rearm, .none:
            break
        }
    }

    func readTimedOut(context: ChannelHandlerContext) {
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
}
