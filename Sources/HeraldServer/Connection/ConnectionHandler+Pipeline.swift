import NIOCore

extension ConnectionHandler {
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
}
