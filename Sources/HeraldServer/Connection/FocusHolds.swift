import HeraldCore
import NIOConcurrencyHelpers

/// The Focus holds (`hold-focus`) each open connection took, so that they end when it
/// closes: the holding process exited, was killed, or heraldctl's command ended.
///
/// A connection holding a Focus is not closed for being idle: it waits, as a subscriber
/// does, for nothing but its own end.
final class FocusHolds: Sendable {
    private let registry: ConnectionRegistry
    private let held = NIOLockedValueBox<[ConnectionIdentity: [(caller: Caller, hold: String)]]>([:])

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    /// Ties the hold `hold` that `caller` took to `connection`; the holds to release now,
    /// when the connection closed before the hold was tied to it (none, usually).
    func add(_ hold: String, caller: Caller, to connection: ConnectionIdentity) -> [(caller: Caller, hold: String)] {
        held.withLockedValue { $0[connection, default: []].append((caller, hold)) }
        // The close removes the connection from the registry before it takes its holds:
        // whichever of the two takes a hold, releases it.
        guard registry.channel(connection) == nil else { return [] }
        return take(connection)
    }

    /// Forgets `hold`, released by `release-focus-hold` before its connection closed.
    func forget(_ hold: String) {
        held.withLockedValue { all in
            for connection in all.keys { all[connection]?.removeAll { $0.hold == hold } }
        }
    }

    /// The holds `connection` took, which it no longer keeps.
    func take(_ connection: ConnectionIdentity) -> [(caller: Caller, hold: String)] {
        held.withLockedValue { $0.removeValue(forKey: connection) } ?? []
    }

    /// Whether `connection` keeps a hold.
    func holds(_ connection: ConnectionIdentity) -> Bool {
        held.withLockedValue { $0[connection]?.isEmpty == false }
    }
}
