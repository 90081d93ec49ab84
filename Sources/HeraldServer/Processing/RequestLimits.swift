/// The limits on what one connection may send, each a `heraldd` flag.
///
/// Each limit is answered with a JSON-RPC error, never a crash or a hang, and never
/// noticed by other clients.
package struct RequestLimits: Sendable, Hashable {
    /// The largest JSON text, in bytes (`--max-request-bytes`). Past it Herald answers
    /// and closes that connection, since the rest of the stream cannot be trusted.
    package var maxRequestBytes: Int = 1 << 20
    /// The deepest nesting of arrays and objects (`--max-depth`).
    package var maxDepth: Int = 64
    /// The most requests in one batch (`--max-batch`).
    package var maxBatchLength: Int = 1000
    /// The most connections open at once (`--max-connections`).
    package var maxConnections: Int = 1024
    /// How long a connection may sit on part of a request, in seconds (`--read-timeout`).
    package var readTimeout: Double = 30
    /// The most connections one uid may hold (`--max-connections-per-uid`); administrators
    /// are not counted against it.
    package var maxConnectionsPerUID: Int = 256
    /// Of `maxConnections`, the slots only administrators may take (`--admin-connections`),
    /// so that root can always connect to look.
    package var adminConnections: Int = 8
    /// How long a connection may stay open with nothing to do, in seconds (`--idle-timeout`);
    /// 0 never. A connection holding a `focus-changed` subscription is waiting by design
    /// and is not closed for it.
    package var idleTimeout: Double = 600
    /// The largest response, a batch's whole array included, in bytes (`--max-response-bytes`).
    /// A batch whose declared results alone pass it is refused before it runs; past it
    /// while a batch runs, its remaining requests are answered with -32000, not run.
    package var maxResponseBytes: Int = 1 << 20
    /// How much output may wait unread in a connection's socket, in bytes
    /// (`--max-unread-bytes`): past it the connection is not read and its framed requests
    /// are not answered until the client reads, and a `focus-changed` notification due
    /// then closes the connection.
    package var maxUnreadBytes: Int = 256 << 10

    package init() {}
}
