import HeraldCore

/// What a method handler knows about the request beyond its params: who sent it, and
/// the connection it came on.
package struct RequestContext: Sendable {
    package var caller: Caller
    /// The connection the request came on; nil for requests with no connection (tests).
    package var connection: ConnectionIdentity?
    /// The size in bytes of the JSON text the request came in (for a batch, the whole
    /// batch's); nil when it is not known.
    package var textByteCount: Int?

    package init(caller: Caller, connection: ConnectionIdentity? = nil) {
        self.caller = caller
        self.connection = connection
    }

    /// This context for a request that came in a text of `byteCount` bytes.
    func sized(_ byteCount: Int) -> RequestContext {
        var sized = self
        sized.textByteCount = byteCount
        return sized
    }
}

/// A connection's number, unique for the life of the daemon.
package struct ConnectionIdentity: Sendable, Hashable {
    package var number: UInt64
    package init(number: UInt64) {
        self.number = number
    }
}
