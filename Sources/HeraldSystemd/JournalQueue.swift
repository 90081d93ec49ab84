import Glibc

/// The bounded queue between callers of ``JournalWriter/submit(_:)`` and its writer thread.
///
/// A pthread mutex with three condition variables: the writer thread sleeps on `available`
/// while the queue is empty, a caller that finds the queue full sleeps on `room` for at
/// most its bounded wait, and ``waitUntilDrained(timeout:)`` sleeps on `drained`. The
/// writer takes every queued entry at once, so the lock is held for a swap, never for I/O.
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

    private let capacity: Int
    // Guarded by `mutex`:
    private var pending: [any JournalRecord] = []
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
            if !closed, pending.count >= capacity, maxWait > .zero {
                var deadline = Self.deadline(after: maxWait)
                while !closed, pending.count >= capacity {
                    if pthread_cond_timedwait(room, mutex, &deadline) == ETIMEDOUT { break }
                }
            }
            guard !closed, pending.count < capacity else {
                counters.dropped += 1
                droppedToReport += 1
                return false
            }
            pending.append(entry)
            if pending.count == 1 {
                pthread_cond_signal(available)
            }
            return true
        }
    }

    /// Waits for entries and takes them all; nil once the queue is closed and empty.
    func take() -> Batch? {
        withLock {
            while pending.isEmpty && !closed {
                pthread_cond_wait(available, mutex)
            }
            guard !pending.isEmpty else { return nil }
            var batch = Batch(entries: [], droppedToReport: droppedToReport)
            batch.entries.reserveCapacity(pending.count)
            swap(&batch.entries, &pending)
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
            if pending.isEmpty {
                pthread_cond_broadcast(drained)
            }
        }
    }

    /// Waits until nothing is queued or being written; false if `timeout` passed first.
    func waitUntilDrained(timeout: Duration) -> Bool {
        var deadline = Self.deadline(after: timeout)
        return withLock {
            while !pending.isEmpty || writing {
                if pthread_cond_timedwait(drained, mutex, &deadline) == ETIMEDOUT {
                    return pending.isEmpty && !writing
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
