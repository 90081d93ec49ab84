import Foundation
import NIOConcurrencyHelpers

/// Counts kept for `stats`: requests and errors per method, open connections, uptime.
public final class ServerStatistics: Sendable {
    /// Requests and errors for one method.
    public struct MethodCounts: Sendable, Hashable, Codable {
        public var requests: UInt64 = 0
        public var errors: UInt64 = 0
    }

    private struct Counts {
        var methods: [String: MethodCounts] = [:]
        var openConnections = 0
        var acceptedConnections: UInt64 = 0
        var refusedConnections: UInt64 = 0
    }

    /// Key under which requests without a readable method are counted (parse errors, invalid requests).
    public static let invalidRequestKey = "(invalid)"
    /// Key under which calls to methods Herald does not have are counted.
    public static let unknownMethodKey = "(unknown)"

    public let startedAt: Date
    private let startInstant: ContinuousClock.Instant
    private let counts = NIOLockedValueBox(Counts())

    public init(startedAt: Date = Date()) {
        self.startedAt = startedAt
        self.startInstant = .now
    }

    public func recordRequest(method: String, failed: Bool) {
        counts.withLockedValue { counts in
            counts.methods[method, default: MethodCounts()].requests += 1
            if failed {
                counts.methods[method, default: MethodCounts()].errors += 1
            }
        }
    }

    /// Counts a connection as open; false when `limit` connections are open already.
    public func openConnection(limit: Int) -> Bool {
        counts.withLockedValue { counts in
            guard counts.openConnections < limit else {
                counts.refusedConnections += 1
                return false
            }
            counts.openConnections += 1
            counts.acceptedConnections += 1
            return true
        }
    }

    public func closeConnection() {
        counts.withLockedValue { $0.openConnections -= 1 }
    }

    public var openConnections: Int {
        counts.withLockedValue { $0.openConnections }
    }

    public var uptimeSeconds: Double {
        let elapsed = ContinuousClock.now - startInstant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A consistent copy of every count.
    public func snapshot() -> (
        methods: [String: MethodCounts], openConnections: Int, acceptedConnections: UInt64, refusedConnections: UInt64
    ) {
        counts.withLockedValue {
            ($0.methods, $0.openConnections, $0.acceptedConnections, $0.refusedConnections)
        }
    }
}
