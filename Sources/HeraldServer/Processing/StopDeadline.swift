import Foundation
import ServiceLifecycle

/// Bounds a stop: once the service group shuts down (SIGTERM, SIGINT), heraldd exits within
/// ``bound`` whatever is running. Issue 49: a request holding the state's lock made SIGTERM
/// take 193 s, past systemd's `TimeoutStopSec=`, which would have killed it without a word.
///
/// Past the bound `expired` runs, on a thread of its own (the cooperative pool may be the
/// one stuck): the daemon logs why and leaves at once, the last periodic snapshot standing.
package struct StopDeadline: Service {
    /// Under the unit's `TimeoutStopSec=20`: the drain (5 s) and the final snapshot fit well
    /// within it, and the exit is heraldd's own, logged, not systemd's SIGKILL.
    package static let defaultBound: Duration = .seconds(15)

    let bound: Duration
    let expired: @Sendable () -> Void

    package init(bound: Duration = Self.defaultBound, expired: @escaping @Sendable () -> Void) {
        self.bound = bound
        self.expired = expired
    }

    package func run() async throws {
        try? await gracefulShutdown()
        let (seconds, attoseconds) = bound.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        let expired = self.expired
        let thread = Thread {
            Thread.sleep(forTimeInterval: interval)
            expired()
        }
        thread.name = "herald-stop"
        thread.start()
    }
}
