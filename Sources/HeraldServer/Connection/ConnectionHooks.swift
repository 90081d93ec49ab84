/// What a connection asks of the server around it.
struct ConnectionHooks: Sendable {
    /// Whether the connection holds a `focus-changed` subscription.
    var holdsSubscription: @Sendable () -> Bool = { false }
    /// Called when the idle timeout closes the connection.
    var closedIdle: @Sendable () -> Void = {}
    /// Called after a large request or response.
    var largeWorkDone: @Sendable () -> Void = {}
    /// Called at the end of each read of the connection: heraldd is not at rest.
    var requestsRead: @Sendable () -> Void = {}
}

/// Asks a connection to finish the request it is reading (if any) and close: the daemon
/// is shutting down.
struct DrainConnection: Sendable {}
