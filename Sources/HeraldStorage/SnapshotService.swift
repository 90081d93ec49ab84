import Foundation
import HeraldCore
import Logging
import ServiceLifecycle

/// Where the snapshot service gets the state from, without depending on the server.
package struct SnapshotSource: Sendable {
    /// A copy of the state (O(1), under its lock) and its change count.
    package var copy: @Sendable () -> (state: HeraldState, changes: UInt64)
    /// Applies `--retention` at `now`, under the state's lock.
    package var pruneExpired: @Sendable (_ now: Date) -> Void

    package init(
        copy: @escaping @Sendable () -> (state: HeraldState, changes: UInt64),
        pruneExpired: @escaping @Sendable (_ now: Date) -> Void
    ) {
        self.copy = copy
        self.pruneExpired = pruneExpired
    }
}

/// Snapshots every `interval` when something changed, applies retention every second,
/// and takes a final snapshot once graceful shutdown reaches it.
///
/// Time is the injected ``HeraldClock``'s: tests move a ``ManualClock`` instead of
/// sleeping. Put it before the server in the `ServiceGroup`: services shut down in
/// reverse order, so it gets its turn after the server has drained its connections —
/// and the final snapshot holds every acknowledged request.
package struct SnapshotService: Service {
    package let writer: SnapshotWriter
    package let source: SnapshotSource
    /// Seconds between snapshots; 0 turns periodic snapshots off (the final one stays).
    package let interval: Double
    package let logger: Logger
    /// Starts a thread that writes a snapshot: the daemon's runs it at a priority below
    /// the event loops', so requests are served meanwhile.
    package let startThread: @Sendable (@escaping @Sendable () -> Void) -> Void
    package let clock: any HeraldClock

    /// Seconds between two applications of `--retention`.
    static let pruneInterval: Double = 1

    package init(
        writer: SnapshotWriter,
        source: SnapshotSource,
        interval: Double,
        logger: Logger,
        clock: any HeraldClock = SystemClock(),
        startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.writer = writer
        self.source = source
        self.interval = interval
        self.logger = logger
        self.clock = clock
        self.startThread = startThread
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { await self.runPeriodically() }
        guard !Task.isCancelled else { return }
        await snapshotIfChanged(reason: "final")
    }

    /// Prunes and snapshots on time until cancelled (by graceful shutdown, or the group).
    private func runPeriodically() async {
        var nextPrune = clock.now() + Self.pruneInterval
        var nextSnapshot = clock.now() + interval
        while true {
            let now = clock.now()
            // A wall clock set back must not postpone the work by as much: no deadline
            // lies further ahead than its period.
            nextPrune = min(nextPrune, now + Self.pruneInterval)
            nextSnapshot = min(nextSnapshot, now + interval)
            let wake = interval > 0 ? min(nextPrune, nextSnapshot) : nextPrune
            do {
                try await clock.sleep(for: wake.timeIntervalSince(now))
            } catch {
                return
            }
            let awake = clock.now()
            if awake >= nextPrune {
                nextPrune = awake + Self.pruneInterval
                source.pruneExpired(awake)
            }
            if interval > 0, awake >= nextSnapshot {
                nextSnapshot = awake + interval
                await snapshotIfChanged(reason: "periodic")
            }
        }
    }

    /// Writes a snapshot on a thread of its own (``startThread``) when the state changed
    /// since the last one. A failure is logged and counted; the next interval tries again.
    func snapshotIfChanged(reason: String) async {
        let started = ContinuousClock.now
        let (state, changes) = source.copy()
        guard writer.isStale(changes: changes) else { return }
        let writer = self.writer
        let logger = self.logger
        let startThread = self.startThread
        let now = clock.now()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            startThread {
                defer { continuation.resume() }
                do throws(SnapshotFileError) {
                    let outcome = try writer.write(state, changes: changes, startedAt: started, now: now)
                    logger.info(
                        "snapshot written",
                        metadata: [
                            "reason": "\(reason)", "generation": "\(outcome.generation)",
                            "interactions": "\(outcome.interactions)", "bytes": "\(outcome.bytes)",
                            "durationMs": "\(Int(outcome.durationMs))",
                        ]
                    )
                } catch {
                    logger.error(
                        "snapshot failed; the previous one is intact, and the next interval tries again: \(error.reason)",
                        metadata: ["reason": "\(reason)", "path": "\(writer.store.currentPath)"]
                    )
                }
            }
        }
    }
}
