import FoundationEssentials
import NIOConcurrencyHelpers

/// Counts kept for `stats`: requests and errors per method, open connections, uptime.
package final class ServerStatistics: Sendable {
    /// Requests and errors for one method.
    package struct MethodCounts: Sendable, Hashable, Codable {
        package var requests: UInt64 = 0
        package var errors: UInt64 = 0
    }

    private struct Counts {
        var methods: [String: MethodCounts] = [:]
        var openConnections = 0
        var acceptedConnections: UInt64 = 0
        var refusedConnections: UInt64 = 0
        var openByUID: [UInt32: Int] = [:]
        var refusedForUIDLimit: UInt64 = 0
        var closedIdle: UInt64 = 0
        var closedUnread: UInt64 = 0
        var refusedBatches: UInt64 = 0
    }

    /// Why a connection was refused, if it was.
    package enum Admission: Sendable, Equatable {
        case admitted
        /// Every slot open to this caller is taken (`--max-connections`, less the kept ones).
        case serverFull(limit: Int)
        /// The caller's uid holds its share already (`--max-connections-per-uid`).
        case uidAtLimit(limit: Int)
    }

    /// Key under which requests without a readable method are counted (parse errors, invalid requests).
    package static let invalidRequestKey = "(invalid)"
    /// Key under which calls to methods Herald does not have are counted.
    package static let unknownMethodKey = "(unknown)"

    package let startedAt: Date
    private let startInstant: ContinuousClock.Instant
    private let counts = NIOLockedValueBox(Counts())

    package init(startedAt: Date = Date()) {
        self.startedAt = startedAt
        self.startInstant = .now
    }

    package func recordRequest(method: String, failed: Bool) {
        counts.withLockedValue { counts in
            counts.methods[method, default: MethodCounts()].requests += 1
            if failed {
                counts.methods[method, default: MethodCounts()].errors += 1
            }
        }
    }

    /// Counts a connection from `uid` as open, unless a limit refuses it.
    ///
    /// An administrator may take every one of `limit` slots; others leave the last
    /// `reservedForAdministrators` free, and each uid may hold at most `perUID` of them.
    package func openConnection(
        uid: UInt32, isAdministrator: Bool, limit: Int, reservedForAdministrators: Int, perUID: Int
    ) -> Admission {
        counts.withLockedValue { counts in
            let slots = isAdministrator ? limit : max(0, limit - reservedForAdministrators)
            let admission: Admission
            if counts.openConnections >= slots {
                admission = .serverFull(limit: slots)
            } else if !isAdministrator, counts.openByUID[uid, default: 0] >= perUID {
                admission = .uidAtLimit(limit: perUID)
            } else {
                admission = .admitted
            }
            switch admission {
            case .admitted:
                counts.openConnections += 1
                counts.acceptedConnections += 1
                counts.openByUID[uid, default: 0] += 1
            case .uidAtLimit:
                counts.refusedConnections += 1
                counts.refusedForUIDLimit += 1
            case .serverFull:
                counts.refusedConnections += 1
            }
            return admission
        }
    }

    /// Counts the close of a connection opened with ``openConnection(uid:isAdministrator:limit:reservedForAdministrators:perUID:)``.
    package func closeConnection(uid: UInt32) {
        counts.withLockedValue { counts in
            counts.openConnections -= 1
            let left = counts.openByUID[uid, default: 1] - 1
            counts.openByUID[uid] = left > 0 ? left : nil
        }
    }

    /// How many connections `uid` holds open now.
    package func openConnections(uid: UInt32) -> Int {
        counts.withLockedValue { $0.openByUID[uid, default: 0] }
    }

    /// Counts a connection closed after `--idle-timeout` with nothing to do.
    package func recordIdleClose() {
        counts.withLockedValue { $0.closedIdle += 1 }
    }

    /// Counts a connection closed because its unread output passed the limit.
    package func recordUnreadClose() {
        counts.withLockedValue { $0.closedUnread += 1 }
    }

    /// Counts a batch refused because its responses would pass `--max-response-bytes`.
    package func recordRefusedBatch() {
        counts.withLockedValue { $0.refusedBatches += 1 }
    }

    /// The counts of the limits on connections and responses, for `stats`.
    package struct LimitCounts: Sendable, Hashable {
        package var refusedForUIDLimit: UInt64
        package var closedIdle: UInt64
        package var closedUnread: UInt64
        package var refusedBatches: UInt64
        /// The uid holding the most connections, and how many it holds (0 when none is open).
        package var busiestUID: UInt32?
        package var busiestUIDConnections = 0
    }

    package var limitCounts: LimitCounts {
        counts.withLockedValue { counts in
            var result = LimitCounts(
                refusedForUIDLimit: counts.refusedForUIDLimit,
                closedIdle: counts.closedIdle,
                closedUnread: counts.closedUnread,
                refusedBatches: counts.refusedBatches
            )
            if let top = counts.openByUID.max(by: { $0.value < $1.value }) {
                result.busiestUID = top.key
                result.busiestUIDConnections = top.value
            }
            return result
        }
    }

    package var openConnections: Int {
        counts.withLockedValue { $0.openConnections }
    }

    package var uptimeSeconds: Double {
        let elapsed = ContinuousClock.now - startInstant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A consistent copy of every count.
    package func snapshot() -> (
        methods: [String: MethodCounts], openConnections: Int, acceptedConnections: UInt64, refusedConnections: UInt64
    ) {
        counts.withLockedValue {
            ($0.methods, $0.openConnections, $0.acceptedConnections, $0.refusedConnections)
        }
    }
}
