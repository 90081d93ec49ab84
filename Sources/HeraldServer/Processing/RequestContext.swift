import HeraldCore

/// What a method handler knows about the request beyond its params: who sent it, and
/// the connection it came on.
public struct RequestContext: Sendable {
    public var caller: Caller
    /// The connection the request came on; nil for requests with no connection (tests).
    public var connection: ConnectionIdentity?

    public init(caller: Caller, connection: ConnectionIdentity? = nil) {
        self.caller = caller
        self.connection = connection
    }
}

/// A connection's number, unique for the life of the daemon.
public struct ConnectionIdentity: Sendable, Hashable {
    public var number: UInt64
    public init(number: UInt64) {
        self.number = number
    }
}
