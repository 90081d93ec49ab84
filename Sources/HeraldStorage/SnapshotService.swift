import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldCore
import Logging
import ServiceLifecycle

/// Where the snapshot service gets the state from, without depending on the server.
package struct SnapshotSource: Sendable {
    /// A copy of the state for a snapshot (under its lock) and its change count.
    package var copy: @Sendable () -> (state: HeraldState, changes: UInt64)
    /// The change count alone: whether there is anything to write, without a copy.
    package var changeCount: @Sendable () -> UInt64
    /// Returns once the change count passes the one given (or at once if it has), or at
    /// cancellation; something else may wake it sooner (a write that failed).
    package var waitForChange: @Sendable (_ after: UInt64) async -> Void
    /// The copy a snapshot of the given generation writes; with a change log, it begins the
    /// log's next segment in the same hold of the lock. `copy` when nil.
    package var copyForSnapshot: (@Sendable (_ generation: UInt64) -> (state: HeraldState, changes: UInt64))?
    /// The change log the snapshots compact; nil under `--durability snapshot`.
    package var log: ChangeLog?

    package init(
        copy: @escaping @Sendable () -> (state: HeraldState, changes: UInt64),
        changeCount: (@Sendable () -> UInt64)? = nil,
        waitForChange: @escaping @Sendable (_ after: UInt64) async -> Void,
        copyForSnapshot: (@Sendable (_ generation: UInt64) -> (state: HeraldState, changes: UInt64))? = nil,
        log: ChangeLog? = nil
    ) {
        self.copy = copy
        self.changeCount = changeCount ?? { copy().changes }
        self.waitForChange = waitForChange
        self.copyForSnapshot = copyForSnapshot
        self.log = log
    }
}

/// Snapshots `interval` after the first change since the last snapshot, and as soon as the
/// change log passes its bound (``ChangeLogBound``); takes a final snapshot once graceful
/// shutdown reaches it. At rest, with nothing changed, it sleeps until a change wakes it
/// (docs/operations.md, "At rest").
///
/// Each write reports to ``PersistenceHealth``. While writes fail, the next interval writes
/// even if nothing changed, so that the first success ends the refusal of changes; with
/// `interval` 0, every ``failureRetryInterval`` seconds. A final snapshot that fails is
/// recorded there as such: heraldd then exits non-zero.
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
    package let health: PersistenceHealth
    /// Run on the snapshot's thread right after its copy of the state: the daemon's lowers
    /// the thread to `SCHED_IDLE` there, so that the copy, under the state's lock, is never
    /// held up by the priority of the encoding that follows.
    package let afterCopy: @Sendable () -> Void

    /// Seconds between two tries while writes fail and periodic snapshots are off.
    package static let failureRetryInterval: Double = 30

    package init(
        writer: SnapshotWriter,
        source: SnapshotSource,
        interval: Double,
        logger: Logger,
        clock: any HeraldClock = SystemClock(),
        health: PersistenceHealth,
        afterCopy: @escaping @Sendable () -> Void = {},
        startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.health = health
        self.afterCopy = afterCopy
        self.writer = writer
        self.source = source
        self.interval = interval
        self.logger = logger
        self.clock = clock
        self.startThread = startThread
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.runPeriodically() }
                if let log = self.source.log {
                    group.addTask { await self.compactWhenPastBound(log) }
                }
            }
        }
        guard !Task.isCancelled else { return }
        await snapshotIfChanged(reason: "final")
    }

    /// Writes a snapshot each time `log` passes its bound, one at a time: a request made
    /// while one is written waits for it (the log asks once per segment, so at most one
    /// waits). Until cancelled.
    private func compactWhenPastBound(_ log: ChangeLog) async {
        let (requests, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        log.whenPastBound { continuation.yield() }
        defer { log.whenPastBound(nil) }
        for await _ in requests {
            await snapshotIfChanged(reason: "log-size")
        }
    }

    /// Seconds to the next periodic snapshot: `interval`, or while writes fail and
    /// periodic snapshots are off, ``failureRetryInterval``; nil for none.
    private var period: Double? {
        if interval > 0 { return interval }
        return health.failure == nil ? nil : Self.failureRetryInterval
    }

    /// Snapshots on time until cancelled (by graceful shutdown, or the group): waits for a
    /// change since the last snapshot, then for the period, then writes.
    private func runPeriodically() async {
        while !Task.isCancelled {
            guard let period else {
                // Periodic snapshots off and writes well: only a change (or a failed write,
                // which rings too) can make a period begin.
                await source.waitForChange(source.changeCount())
                continue
            }
            if health.failure == nil, let written = writer.changesWritten {
                await source.waitForChange(written)
            }
            do {
                try await clock.sleep(for: period)
            } catch {
                return
            }
            await snapshotIfChanged(reason: "periodic")
        }
    }

    /// Writes a snapshot on a thread of its own (``startThread``) when the state changed
    /// since the last one, or while writes fail (a success ends the failure). A final one
    /// that fails is recorded as the final failure.
    func snapshotIfChanged(reason: String) async {
        let started = ContinuousClock.now
        let changes = source.changeCount()
        guard writer.isStale(changes: changes) || (health.failure != nil && reason != "final") else { return }
        let source = self.source
        let afterCopy = self.afterCopy
        let writer = self.writer
        let health = self.health
        let logger = self.logger
        let startThread = self.startThread
        let now = clock.now()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            startThread {
                defer { continuation.resume() }
                let result = Self.write(
                    copying: { generation in
                        let copy = source.copyForSnapshot?(generation) ?? source.copy()
                        // A log past its bound is compacted at normal priority: load that
                        // starves an idle thread would otherwise let it grow without end.
                        if reason != "log-size" { afterCopy() }
                        return copy
                    }, writer: writer,
                    health: health, log: source.log, startedAt: started, now: now, final: reason == "final")
                if case .success(let outcome) = result {
                    logger.info(
                        "snapshot written",
                        metadata: [
                            "reason": "\(reason)", "generation": "\(outcome.generation)",
                            "interactions": "\(outcome.interactions)", "bytes": "\(outcome.bytes)",
                            "durationMs": "\(Int(outcome.durationMs))",
                        ]
                    )
                }
            }
        }
    }

    /// Writes `state` (at change count `changes`) and tells `health` how it went: the one
    /// way the state is written, by the periodic and final snapshots and the `snapshot` method.
    package static func write(
        _ state: HeraldState,
        changes: UInt64,
        writer: SnapshotWriter,
        health: PersistenceHealth,
        startedAt: ContinuousClock.Instant = .now,
        now: Date,
        final: Bool = false
    ) -> Result<SnapshotOutcome, SnapshotFileError> {
        write(copying: { _ in (state, changes) }, writer: writer, health: health, startedAt: startedAt, now: now, final: final)
    }

    /// The same with the copy taken once the snapshot's generation is known: a change log
    /// (`log`) begins its next segment with the copy, and drops the segments before it
    /// once the snapshot is durable.
    package static func write(
        copying copy: (_ generation: UInt64) -> (state: HeraldState, changes: UInt64),
        writer: SnapshotWriter,
        health: PersistenceHealth,
        log: ChangeLog? = nil,
        startedAt: ContinuousClock.Instant = .now,
        now: Date,
        final: Bool = false
    ) -> Result<SnapshotOutcome, SnapshotFileError> {
        var changes: UInt64 = 0
        do throws(SnapshotFileError) {
            let outcome = try writer.write(
                copying: { generation in
                    let copied = copy(generation)
                    changes = copied.changes
                    return (copied.state, copied.changes)
                }, startedAt: startedAt, now: now)
            if let log, let broken = log.snapshotWritten(generation: outcome.generation, bytes: outcome.bytes) {
                health.recordFailure(cause: broken, at: now, unwrittenChanges: 0)
            } else {
                health.recordWritten(at: now)
            }
            return .success(outcome)
        } catch {
            let unwritten = writer.unwrittenChanges(at: changes)
            if final {
                health.recordFinalFailure(
                    cause: error.reason, at: now, unwrittenChanges: unwritten, generation: writer.generation, pid: getpid())
            } else {
                health.recordFailure(cause: error.reason, at: now, unwrittenChanges: unwritten)
            }
            return .failure(error)
        }
    }
}
