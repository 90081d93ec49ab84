import Dispatch
import FoundationEssentials
import HeraldProtocol
import HeraldCore
import NIOConcurrencyHelpers
import Synchronization

extension ChangeReplay {
    /// Records a reading thread hands on at a time: a restart's replay takes the state's
    /// lock once per run of donations among them, and the applying thread, when it waits,
    /// is woken once per batch (a futex call each, some 5 % of the reading thread's time
    /// at 512).
    static let batchSize = 2048
    /// Batches read ahead of the one being applied, at most: what the reading thread may
    /// hold in memory beyond it.
    static let batchesAhead = 4

    /// Replays the records `read` hands to its `next`, in order, on two threads: `read` runs
    /// on a thread of its own, which reads, checks and makes each record ready
    /// (``prepare(method:caller:appliedAt:params:generated:)``,
    /// ``prepareDonation(caller:appliedAt:app:record:)``), while the calling thread
    /// applies them in batches, each run of donations held until it ends and then stored
    /// at once (``DonationRun``). Returns how many were applicable, and what `read`
    /// returned. For a start, before anything is served: the calling thread waits.
    ///
    /// The interactions the donations evicted are freed by whichever thread would
    /// otherwise wait, and what is left at the end after the first answer; the batches go
    /// back to the reading thread to be filled again (docs/performance.md, "Durability").
    package func replay<Outcome: Sendable>(
        reading read: @escaping @Sendable (_ next: (consuming PreparedChange) -> Void) -> Outcome
    ) -> (applied: Int, outcome: Outcome) {
        let handOff = BatchHandOff(capacity: Self.batchesAhead)
        let outcome = NIOLockedValueBox<Outcome?>(nil)
        DetachedThread.start(named: "herald-replay") {
            var batch = handOff.emptyBatch()
            let result = read { (prepared: consuming PreparedChange) in
                batch.append(prepared)
                guard batch.count == Self.batchSize else { return }
                handOff.put(batch)
                batch = handOff.emptyBatch()
            }
            if !batch.isEmpty { handOff.put(batch) }
            outcome.withLockedValue { $0 = result }
            handOff.finish()
        }
        var applied = 0
        var run: DonationRun? = DonationRun()
        while var batch = handOff.take() {
            var released = ReleasedInteractions()
            applied += apply(&batch, in: &run, releasing: &released)
            handOff.retire(batch, released)
        }
        storeRun(&run!)
        handOff.freeReleasedApart()
        return (applied, outcome.withLockedValue { $0! })
    }
}

/// Batches handed from one thread to another in order, at most `capacity` waiting: the
/// giver waits while it is full, the taker while it is empty.
///
/// What the taker is done with comes back: a batch's array to the giver, to be filled
/// again (a new one of that size, and freeing the old, would each make glibc's malloc
/// consolidate its free lists), and the interactions its donations evicted, to be freed
/// by whichever of the two would otherwise wait — the thread that bounds a restart never
/// frees while the other has time — and what is left at the end on a thread of its own
/// (``freeReleasedApart()``), after the first answer rather than before it.
private final class BatchHandOff: Sendable {
    private let waiting = Mutex<(batches: [[PreparedChange]], finished: Bool)>(([], false))
    private let room: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private let retired = Mutex<(batches: [[PreparedChange]], released: [ReleasedInteractions])>(([], []))

    init(capacity: Int) {
        room = DispatchSemaphore(value: capacity)
    }

    /// An empty batch to fill: one the taker retired, else a new one.
    func emptyBatch() -> [PreparedChange] {
        if var batch = retired.withLock({ $0.batches.popLast() }) {
            batch.removeAll(keepingCapacity: true)
            return batch
        }
        var batch: [PreparedChange] = []
        batch.reserveCapacity(ChangeReplay.batchSize)
        return batch
    }

    func put(_ batch: consuming [PreparedChange]) {
        wait(for: room)
        let batch = consume batch
        waiting.withLock { $0.batches.append(batch) }
        ready.signal()
    }

    /// Waits for `semaphore`, freeing what the taker released, a batch's worth at a time,
    /// for as long as the wait would last.
    private func wait(for semaphore: DispatchSemaphore) {
        while semaphore.wait(timeout: .now()) == .timedOut {
            guard let released = retired.withLock({ $0.released.popLast() }) else {
                semaphore.wait()
                return
            }
            _ = consume released
        }
    }

    /// A batch the taker applied, and what its donations released.
    func retire(_ batch: consuming [PreparedChange], _ released: consuming ReleasedInteractions) {
        let (batch, released) = (consume batch, consume released)
        retired.withLock { retired in
            retired.batches.append(batch)
            if released.count > 0 { retired.released.append(released) }
        }
    }

    /// Frees what is still released on a thread of its own, under `SCHED_IDLE`: on the
    /// time the start and the first requests leave.
    func freeReleasedApart() {
        var left: [ReleasedInteractions] = []
        retired.withLock { swap(&left, &$0.released) }
        guard !left.isEmpty else { return }
        let released = left
        left = []
        WorkThread.run(named: "herald-free", priority: .idle) { withExtendedLifetime(released) {} }
    }

    /// No more batches: ``take()`` returns nil once those waiting are taken.
    func finish() {
        waiting.withLock { $0.finished = true }
        ready.signal()
    }

    /// The next batch, waiting for it; nil once the giver finished and all are taken.
    func take() -> [PreparedChange]? {
        wait(for: ready)
        let batch = waiting.withLock { waiting -> [PreparedChange]? in
            guard !waiting.batches.isEmpty else { return nil }
            return waiting.batches.removeFirst()
        }
        if batch != nil { room.signal() }
        return batch
    }
}
