/// The limits on what one connection may send, each a `heraldd` flag.
///
/// Each limit is answered with a JSON-RPC error, never a crash or a hang, and never
/// noticed by other clients.
public struct RequestLimits: Sendable, Hashable {
    /// The largest JSON text, in bytes (`--max-request-bytes`). Past it Herald answers
    /// and closes that connection, since the rest of the stream cannot be trusted.
    public var maxRequestBytes: Int = 1 << 20
    /// The deepest nesting of arrays and objects (`--max-depth`).
    public var maxDepth: Int = 64
    /// The most requests in one batch (`--max-batch`).
    public var maxBatchLength: Int = 1000
    /// The most connections open at once (`--max-connections`).
    public var maxConnections: Int = 1024
    /// How long a connection may sit on part of a request, in seconds (`--read-timeout`).
    public var readTimeout: Double = 30

    public init() {}
}
