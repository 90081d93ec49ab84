import Glibc
import Synchronization

/// The bounded queue between callers of ``JournalWriter/submit(_:)`` and its writer thread.
///
/// A pthread mutex with three condition variables: the writer thread sleeps on `available`
/// while the queue is empty, a caller that finds the queue full sleeps on `room` for at
/// most its bounded wait, and ``waitUntilDrained(timeout:)`` sleeps on `drained`. The
/// writer takes up to ``maximumBatch`` entries at once, so the lock is held for a copy of
/// a slice, never for I/O.
///
/// Back-pressure: once ``highWater`` entries wait, the queue is congested
/// (``isCongested``) until the writer has taken it down to ``lowWater``; then it calls,
/// on the writer thread, every `resume` given to ``resumeWhenRelieved(_:)`` meanwhile.
/// Callers that stop their intake while it is congested (connections stop reading) keep
/// the queue from filling, so nothing is dropped. A writer that has taken nothing for
/// `stallTimeout` is stuck (journald hangs): ``releaseIfStalled()`` then gives up, calls
/// the waiting `resume`s and lets the queue fill and drop — the last resort — until the
/// writer takes it down to ``lowWater`` again.
final class JournalQueue: @unchecked Sendable {
    /// What the writer thread takes in one go.
    struct Batch {
        var entries: [any JournalRecord]
        /// Entries dropped since the last report; the writer reports them after `entries`.
        var droppedToReport: UInt64
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let available = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let drained = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let room = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// The most entries the writer takes at once.
    ///
    /// Taking the whole queue left a full queue without room until the writer had written all
    /// of it — 65,536 entries, seconds at journald's pace — so callers waiting for room gave
    /// up and dropped entries. A thousand entries take journald a few tens of milliseconds,
    /// well within a caller's bounded wait.
    static let maximumBatch = 1024

    private let capacity: Int
    /// Waiting entries at which the queue becomes congested.
    let highWater: Int
    /// Waiting entries at or below which a congested queue is relieved.
    let lowWater: Int
    private let stallTimeout: Duration
    /// Mirrors `congested`, for a check on every request without the lock.
    private let congestedFlag = Atomic<Bool>(false)
    // Guarded by `mutex`:
    /// Queued entries from `head` on; those before `head` were taken already.
    private var pending: [any JournalRecord] = []
    private var head = 0
    private var pendingCount: Int { pending.count - head }
    private var droppedToReport: UInt64 = 0
    private var writing = false
    private var closed = false
    private var counters = JournalWriterCounters()
    private var congested = false
    /// Set when a stalled writer made the queue give up back-pressure until relieved.
    private var overflowing = false
    private var relievedWaiters: [@Sendable () -> Void] = []
    /// CLOCK_MONOTONIC nanoseconds when the writer last took a batch or finished one.
    private var lastProgress: UInt64 = 0

    /// - Parameters:
    ///   - highWater: waiting entries at which the queue is congested; by default an eighth
    ///     of the capacity: the rest is room for what connections finish before they pause,
    ///     and entries wait less than a second at journald's pace (about 10,000 a second here).
    ///   - lowWater: waiting entries at or below which it is relieved; by default one
    ///     ``maximumBatch`` below `highWater`, so that a pause lasts about one batch's write,
    ///     not the many it would take to empty the queue (pauses of 1.5 s at journald's pace).
    ///   - stallTimeout: how long the writer may take nothing before back-pressure gives up.
    init(capacity: Int, highWater: Int? = nil, lowWater: Int? = nil, stallTimeout: Duration = .seconds(1)) {
        precondition(capacity > 0, "a journal queue needs room for at least one entry")
        self.capacity = capacity
        let high = min(capacity, max(1, highWater ?? capacity / 8))
        self.highWater = high
        self.lowWater = min(high - 1, max(0, lowWater ?? high - min(Self.maximumBatch, high / 2)))
        self.stallTimeout = stallTimeout
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(available, &attributes)
        pthread_cond_init(drained, &attributes)
        pthread_cond_init(room, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(room)
        room.deallocate()
        pthread_cond_destroy(drained)
        pthread_cond_destroy(available)
        pthread_mutex_destroy(mutex)
        drained.deallocate()
        available.deallocate()
        mutex.deallocate()
    }

    private func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Queues `entry`. When the queue is full, waits at most `maxWait` for the writer to
    /// make room — so that a burst slows to journald's pace instead of losing entries — and
    /// then drops and counts it. A closed queue drops at once.
    @discardableResult
    func offer(_ entry: any JournalRecord, maxWait: Duration = .zero) -> Bool {
        withLock {
            if !closed, pendingCount >= capacity, maxWait > .zero {
                var deadline = Self.deadline(after: maxWait)
                while !closed, pendingCount >= capacity {
                    if pthread_cond_timedwait(room, mutex, &deadline) == ETIMEDOUT { break }
                }
            }
            guard !closed, pendingCount < capacity else {
                counters.dropped += 1
                droppedToReport += 1
                return false
            }
            pending.append(entry)
            if pendingCount == 1 {
                pthread_cond_signal(available)
            }
            if pendingCount >= highWater, !congested, !overflowing {
                congested = true
                congestedFlag.store(true, ordering: .relaxed)
            }
            return true
        }
    }

    /// Whether intake should pause: true from ``highWater`` waiting entries until the
    /// writer has taken the queue down to ``lowWater``. Cheap enough for every request.
    var isCongested: Bool {
        congestedFlag.load(ordering: .relaxed)
    }

    /// Calls `resume` once the congestion is over — on the writer thread, or on the caller
    /// of ``releaseIfStalled()`` or ``close()`` — and returns true; returns false, and
    /// never calls it, when the queue is not congested.
    func resumeWhenRelieved(_ resume: @escaping @Sendable () -> Void) -> Bool {
        withLock {
            guard congested else { return false }
            relievedWaiters.append(resume)
            return true
        }
    }

    /// When the queue is congested and the writer has taken nothing for the stall timeout,
    /// gives up back-pressure until the writer takes the queue down to ``lowWater``, and
    /// calls the waiting `resume`s. True when the queue is not congested (any longer).
    @discardableResult
    func releaseIfStalled() -> Bool {
        let waiters: [@Sendable () -> Void]? = withLock {
            guard congested else { return [] }
            let stall = UInt64(stallTimeout.components.seconds) * 1_000_000_000
                + UInt64(stallTimeout.components.attoseconds / 1_000_000_000)
            guard Self.monotonicNanoseconds() - lastProgress >= stall else { return nil }
            overflowing = true
            return relieve()
        }
        waiters?.forEach { $0() }
        return waiters != nil
    }

    /// Ends the congestion; returns the waiters to call once the lock is released.
    private func relieve() -> [@Sendable () -> Void] {
        congested = false
        congestedFlag.store(false, ordering: .relaxed)
        defer { relievedWaiters = [] }
        return relievedWaiters
    }

    /// Waits for entries and takes the oldest, up to ``maximumBatch``; nil once the queue is
    /// closed and empty. Relieves a congested queue it takes down to ``lowWater``.
    func take() -> Batch? {
        var relieved: [@Sendable () -> Void] = []
        defer { relieved.forEach { $0() } }
        return withLock {
            while pendingCount == 0 && !closed {
                pthread_cond_wait(available, mutex)
            }
            guard pendingCount > 0 else { return nil }
            lastProgress = Self.monotonicNanoseconds()
            let end = min(pending.count, head + Self.maximumBatch)
            let batch = Batch(entries: Array(pending[head..<end]), droppedToReport: droppedToReport)
            if end == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            } else {
                head = end
                // Forget the taken entries once they are half the array: each entry is moved
                // at most once on average.
                if head * 2 >= pending.count {
                    pending.removeFirst(head)
                    head = 0
                }
            }
            droppedToReport = 0
            writing = true
            pthread_cond_broadcast(room)
            if pendingCount <= lowWater {
                overflowing = false
                if congested { relieved = relieve() }
            }
            return batch
        }
    }

    /// Records what the writer thread did with the last batch it took.
    func finish(written: Int, failed: Int, reportedDrops: Bool) {
        withLock {
            lastProgress = Self.monotonicNanoseconds()
            counters.written += UInt64(written)
            counters.failed += UInt64(failed)
            if reportedDrops {
                counters.dropReports += 1
            }
            writing = false
            if pendingCount == 0 {
                pthread_cond_broadcast(drained)
            }
        }
    }

    /// Waits until nothing is queued or being written; false if `timeout` passed first.
    func waitUntilDrained(timeout: Duration) -> Bool {
        var deadline = Self.deadline(after: timeout)
        return withLock {
            while pendingCount > 0 || writing {
                if pthread_cond_timedwait(drained, mutex, &deadline) == ETIMEDOUT {
                    return pendingCount == 0 && !writing
                }
            }
            return true
        }
    }

    /// Refuses new entries from now on, wakes the writer thread to write what is left, and
    /// resumes whoever waits for relief. True the first time only.
    func close() -> Bool {
        var relieved: [@Sendable () -> Void] = []
        defer { relieved.forEach { $0() } }
        return withLock {
            defer { closed = true }
            pthread_cond_broadcast(available)
            pthread_cond_broadcast(room)
            relieved = relieve()
            return !closed
        }
    }

    var currentCounters: JournalWriterCounters {
        withLock { counters }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The CLOCK_MONOTONIC time `duration` from now, for pthread_cond_timedwait.
    private static func deadline(after duration: Duration) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = max(duration, .zero).components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }
}
