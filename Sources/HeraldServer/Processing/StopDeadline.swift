import Dispatch
import FoundationEssentials
import HeraldProtocol
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Bounds a stop: once the service group shuts down (SIGTERM, SIGINT), heraldd exits within
/// ``bound`` whatever is running. Issue 49: a request holding the state's lock made SIGTERM
/// take 193 s, past systemd's `TimeoutStopSec=`, which would have killed it without a word.
///
/// Past the bound `expired` runs, on a thread of its own: the daemon logs why and leaves at
/// once, the last periodic snapshot standing. The clock starts at the signal itself, heard
/// on a Dispatch queue of its own, not at the group's shutdown: the services that take the
/// state's lock (summaries, pruning) run on the cooperative pool, and with the lock held
/// they wait in every one of its threads, so nothing on the pool — the group's own signal
/// handling included — runs until the lock is let go.
package struct StopDeadline: Service {
    /// Under the unit's `TimeoutStopSec=20`: the drain (5 s) and the final snapshot fit well
    /// within it, and the exit is heraldd's own, logged, not systemd's SIGKILL.
    package static let defaultBound: Duration = .seconds(15)

    let bound: Duration
    let expired: @Sendable () -> Void
    let signals: [Int32]
    /// Calls back when the clock may start: the daemon's waits for a start's store restore,
    /// which a stop lets finish (the final snapshot holds the store, and what changed meanwhile).
    var afterStoreRestore: @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }

    /// `signals` start the clock as they arrive; the group's shutdown starts it too.
    package init(
        bound: Duration = Self.defaultBound, signals: [Int32] = [SIGTERM, SIGINT],
        afterStoreRestore: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
        expired: @escaping @Sendable () -> Void
    ) {
        self.bound = bound
        self.signals = signals
        self.afterStoreRestore = afterStoreRestore
        self.expired = expired
    }

    package func run() async throws {
        let clock = Clock(bound: bound, expired: expired, after: afterStoreRestore)
        let queue = DispatchQueue(label: "herald-stop")
        let sources = signals.map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler { clock.start() }
            source.resume()
            return source
        }
        try? await gracefulShutdown()
        clock.start()
        withExtendedLifetime(sources) {}
    }

    /// Started once, by whichever comes first.
    final class Clock: Sendable {
        let bound: Duration
        let expired: @Sendable () -> Void
        let after: @Sendable (@escaping @Sendable () -> Void) -> Void
        let started = Atomic(false)

        init(bound: Duration, expired: @escaping @Sendable () -> Void, after: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
            self.bound = bound
            self.expired = expired
            self.after = after
        }

        func start() {
            guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
            let (seconds, attoseconds) = bound.components
            let interval = Double(seconds) + Double(attoseconds) / 1e18
            let expired = self.expired
            after {
                DetachedThread.start(named: "herald-stop") {
                    DetachedThread.sleep(seconds: interval)
                    expired()
                }
            }
        }
    }
}
