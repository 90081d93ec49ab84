import HeraldProtocol
import NIOCore

/// A reply computed off the event loop — a method that takes long — and handed back to its
/// connection on the connection's event loop.
enum OffLoopReply {
    /// Runs `work` on a thread of its own, at the CPU priority `placement` says, and calls
    /// the handler's `replyArrived` with the response on `context`'s event loop.
    static func run(
        _ work: @escaping @Sendable () -> [UInt8]?, on placement: MethodPlacement,
        handler: ConnectionHandler, context: ChannelHandlerContext
    ) {
        let loopBound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
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
}
