import Dispatch
import FoundationEssentials
import HeraldProtocol
import HeraldCore
import NIOConcurrencyHelpers
import Synchronization

extension ChangeReplay {
    /// Records a reading thread hands on at a time: a restart's replay takes the state's
    /// lock once per run of donations among them.
    static let batchSize = 512
    /// Batches read ahead of the one being applied, at most: what the reading thread may
    /// hold in memory beyond it.
    static let batchesAhead = 8

    /// Replays the records `read` hands to its `next`, in order, on two threads: `read` runs
    /// on a thread of its own, which reads, checks and makes each record ready
    /// (``prepare(method:caller:appliedAt:params:generated:)``,
    /// ``prepareDonation(caller:appliedAt:app:interaction:)``), while the calling thread
    /// applies them in batches, each run of donations held until it ends and then stored
    /// at once (``DonationRun``). Returns how many were applicable, and what `read`
    /// returned. For a start, before anything is served: the calling thread waits.
    ///
    /// Applying bounds a restart, so each batch applied, and the interactions its donations
    /// evicted, go back to the reading thread to be freed there (docs/performance.md, "Durability").
    package func replay<Outcome: Sendable>(
        reading read: @escaping @Sendable (_ next: (PreparedChange) -> Void) -> Outcome
    ) -> (applied: Int, outcome: Outcome) {
        let handOff = BatchHandOff(capacity: Self.batchesAhead)
        let outcome = NIOLockedValueBox<Outcome?>(nil)
        DetachedThread.start(named: "herald-replay") { [self] in
            var batch: [PreparedChange] = []
            batch.reserveCapacity(Self.batchSize)
            let result = read { prepared in
                batch.append(prepared)
                guard batch.count == Self.batchSize else { return }
                handOff.put(batch)
                batch.removeAll(keepingCapacity: true)
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
        return (applied, outcome.withLockedValue { $0! })
    }
}

/// Batches handed from one thread to another in order, at most `capacity` waiting: the
/// giver waits while it is full, the taker while it is empty. What the taker is done with
/// goes back, and the giver frees it at its next batch.
private final class BatchHandOff: Sendable {
    private let waiting = Mutex<(batches: [[PreparedChange]], finished: Bool)>(([], false))
    private let room: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private let retired = Mutex<[(batch: [PreparedChange], released: ReleasedInteractions)]>([])

    init(capacity: Int) {
        room = DispatchSemaphore(value: capacity)
    }

    func put(_ batch: [PreparedChange]) {
        freeRetired()
        room.wait()
        waiting.withLock { $0.batches.append(batch) }
        ready.signal()
    }

    /// Frees what the taker retired, on the calling thread and out of the lock.
    private func freeRetired() {
        var done: [(batch: [PreparedChange], released: ReleasedInteractions)] = []
        retired.withLock { swap(&done, &$0) }
    }

    /// A batch the taker applied and what it released, for the giver to free.
    func retire(_ batch: consuming [PreparedChange], _ released: consuming ReleasedInteractions) {
        let done = (batch, released)
        retired.withLock { $0.append(done) }
    }

    /// No more batches: ``take()`` returns nil once those waiting are taken.
    func finish() {
        waiting.withLock { $0.finished = true }
        ready.signal()
    }

    /// The next batch, waiting for it; nil once the giver finished and all are taken.
    func take() -> [PreparedChange]? {
        ready.wait()
        let batch = waiting.withLock { waiting -> [PreparedChange]? in
            guard !waiting.batches.isEmpty else { return nil }
            return waiting.batches.removeFirst()
        }
        if batch != nil { room.signal() }
        return batch
    }
}
