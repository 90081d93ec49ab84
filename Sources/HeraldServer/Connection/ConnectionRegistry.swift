import NIOConcurrencyHelpers
import NIOCore

/// The open connections, so that the server can drain them at shutdown and write
/// notifications to them.
final class ConnectionRegistry: Sendable {
    private let channels = NIOLockedValueBox<[ConnectionIdentity: any Channel]>([:])
    private let nextNumber = NIOLockedValueBox<UInt64>(1)

    func makeIdentity() -> ConnectionIdentity {
        nextNumber.withLockedValue { number in
            defer { number += 1 }
            return ConnectionIdentity(number: number)
        }
    }

    func add(_ channel: any Channel, as identity: ConnectionIdentity) {
        channels.withLockedValue { $0[identity] = channel }
    }

    func remove(_ identity: ConnectionIdentity) {
        _ = channels.withLockedValue { $0.removeValue(forKey: identity) }
    }

    func channel(_ identity: ConnectionIdentity) -> (any Channel)? {
        channels.withLockedValue { $0[identity] }
    }

    var entries: [(ConnectionIdentity, any Channel)] {
        channels.withLockedValue { $0.map { ($0.key, $0.value) } }
    }

    var all: [any Channel] {
        channels.withLockedValue { Array($0.values) }
    }
}
