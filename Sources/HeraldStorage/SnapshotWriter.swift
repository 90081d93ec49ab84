import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Synchronization

/// What one snapshot wrote.
package struct SnapshotOutcome: Sendable, Hashable {
    package var path: String
    package var generation: UInt64
    package var interactions: Int
    package var bytes: Int
    /// From the copy of the state to the folder's fsync, in milliseconds.
    package var durationMs: Double
    package var createdAt: Date
}

/// Takes snapshots one at a time and keeps the figures `stats` reports.
///
/// The state arrives as a copy (copy-on-write, taken under the state's lock in O(1));
/// encoding and writing happen on the caller's thread, outside that lock.
package final class SnapshotWriter: Sendable {
    package let store: SnapshotStore
    /// Where record chunks are encoded in parallel; nil for the calling thread alone.
    package let parallel: ParallelWork?

    private struct Figures: Sendable {
        /// The generation of the newest snapshot loaded or written.
        var generation: UInt64
        /// The number the next snapshot takes.
        var nextGeneration: UInt64
        /// The state's change count at the last snapshot that succeeded.
        var changesWritten: UInt64?
        var last: SnapshotOutcome?
        var failures = 0
        var lastError: String?
    }

    private let figures: Mutex<Figures>
    /// Held for a whole write, so that two never interleave.
    private let writing = Mutex<Void>(())

    /// - Parameters:
    ///   - generation: the generation of the snapshot loaded at start (0 for none).
    ///   - highestGeneration: the highest generation the folder shows was ever begun
    ///     (``Recovery/highestGeneration``); the next snapshot takes one more than it.
    package init(
        store: SnapshotStore,
        generation: UInt64,
        highestGeneration: UInt64 = 0,
        parallel: ParallelWork? = nil
    ) {
        self.store = store
        self.parallel = parallel
        self.figures = Mutex(Figures(generation: generation, nextGeneration: Self.after(max(generation, highestGeneration))))
    }

    /// One more than `generation`; a crafted header's `UInt64.max` does not trap.
    private static func after(_ generation: UInt64) -> UInt64 {
        generation == .max ? .max : generation + 1
    }

    /// Writes `state` as the next generation; `changes` is the change count it was copied at.
    package func write(
        _ state: HeraldState,
        changes: UInt64?,
        startedAt: ContinuousClock.Instant = .now,
        now: Date = Date()
    ) throws(SnapshotFileError) -> SnapshotOutcome {
        try write(copying: { _ in (state, changes) }, startedAt: startedAt, now: now)
    }

    /// Writes the state `copy` returns as the next generation, `copy` called with that
    /// generation while no other snapshot is written: the change log begins the segment
    /// that follows it in the same hold of the state's lock as the copy.
    package func write(
        copying copy: (_ generation: UInt64) -> (state: HeraldState, changes: UInt64?),
        startedAt: ContinuousClock.Instant = .now,
        now: Date = Date()
    ) throws(SnapshotFileError) -> SnapshotOutcome {
        let result: Result<SnapshotOutcome, SnapshotFileError> = writing.withLock { _ in
            let generation = figures.withLock { $0.nextGeneration }
            let (state, changes) = copy(generation)
            do throws(SnapshotFileError) {
                let file = try SnapshotFile(encoding: state, generation: generation, now: now, parallel: parallel)
                try store.write(file)
                let elapsed = ContinuousClock.now - startedAt
                let outcome = SnapshotOutcome(
                    path: store.currentPath,
                    generation: generation,
                    interactions: state.interactionCount,
                    bytes: file.byteCount,
                    durationMs: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
                    createdAt: now
                )
                figures.withLock {
                    $0.generation = generation
                    $0.nextGeneration = Self.after(generation)
                    $0.last = outcome
                    if let changes { $0.changesWritten = changes }
                }
                return .success(outcome)
            } catch {
                figures.withLock {
                    $0.failures += 1
                    $0.lastError = error.reason
                }
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether a state at change count `changes` differs from the last snapshot written.
    package func isStale(changes: UInt64) -> Bool {
        figures.withLock { $0.changesWritten != changes }
    }

    /// The change count of the last snapshot written (or of the state loaded at start); nil
    /// before either.
    package var changesWritten: UInt64? { figures.withLock { $0.changesWritten } }

    /// Calls that changed the state between the last snapshot written and change count `changes`.
    package func unwrittenChanges(at changes: UInt64) -> UInt64 {
        figures.withLock { changes &- ($0.changesWritten ?? 0) }
    }

    /// The generation on disk: the newest loaded or written.
    package var generation: UInt64 { figures.withLock { $0.generation } }

    /// Marks change count `changes` as already on disk (the state just loaded at start).
    package func markWritten(changes: UInt64) {
        figures.withLock { $0.changesWritten = changes }
    }

    /// `stats.snapshot`: `{lastAt, generation, durationMs, bytes, failures}`; `lastAt`,
    /// `durationMs` and `bytes` are null until this daemon has written one.
    package var statsMember: JSONValue {
        let figures = figures.withLock { $0 }
        var member: JSONObject = [
            "lastAt": figures.last.map { .string(RFC3339.format($0.createdAt)) } ?? .null,
            "generation": .number(JSONNumber(Int(figures.generation))),
            "durationMs": figures.last.map { .number(JSONNumber(($0.durationMs * 1000).rounded() / 1000)) } ?? .null,
            "bytes": figures.last.map { .number(JSONNumber($0.bytes)) } ?? .null,
            "failures": .number(JSONNumber(figures.failures)),
        ]
        member["path"] = .string(store.currentPath)
        return .object(member)
    }
}
