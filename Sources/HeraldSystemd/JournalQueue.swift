import Glibc

/// The bounded queue between callers of ``JournalWriter/submit(_:)`` and its writer thread.
///
/// A pthread mutex with three condition variables: the writer thread sleeps on `available`
/// while the queue is empty, a caller that finds the queue full sleeps on `room` for at
/// most its bounded wait, and ``waitUntilDrained(timeout:)`` sleeps on `drained`. The
/// writer takes up to ``maximumBatch`` entries at once, so the lock is held for a copy of
/// a slice, never for I/O.
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
    // Guarded by `mutex`:
    /// Queued entries from `head` on; those before `head` were taken already.
    private var pending: [any JournalRecord] = []
    private var head = 0
    private var pendingCount: Int { pending.count - head }
    private var droppedToReport: UInt64 = 0
    private var writing = false
    private var closed = false
    private var counters = JournalWriterCounters()

    init(capacity: Int) {
        precondition(capacity > 0, "a journal queue needs room for at least one entry")
        self.capacity = capacity
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
            return true
        }
    }

    /// Waits for entries and takes the oldest, up to ``maximumBatch``; nil once the queue is
    /// closed and empty.
    func take() -> Batch? {
        withLock {
            while pendingCount == 0 && !closed {
                pthread_cond_wait(available, mutex)
            }
            guard pendingCount > 0 else { return nil }
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
            return batch
        }
    }

    /// Records what the writer thread did with the last batch it took.
    func finish(written: Int, failed: Int, reportedDrops: Bool) {
        withLock {
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

    /// Refuses new entries from now on and wakes the writer thread to write what is left.
    /// True the first time only.
    func close() -> Bool {
        withLock {
            defer { closed = true }
            pthread_cond_broadcast(available)
            pthread_cond_broadcast(room)
            return !closed
        }
    }

    var currentCounters: JournalWriterCounters {
        withLock { counters }
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
