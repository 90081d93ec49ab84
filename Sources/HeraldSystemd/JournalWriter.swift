import CSystemd
import Glibc

/// Writes journal entries on a thread of its own, off the request path.
///
/// ``submit(_:)`` appends to a bounded queue. Callers run on event loops, which must never
/// wait for journald, so the queue pushes back instead: from an eighth full it is congested
/// (``isCongested``) until the thread has taken one batch off, and callers pause
/// their intake meanwhile (``resumeWhenRelieved(_:)``). When the queue is full all the
/// same — journald stuck, see ``releaseIfStalled()`` — it drops the entry and counts it at
/// once, and never drops silently. (Tests may give `maxSubmitWait` to wait for room first.) A dedicated thread (not a Swift concurrency task: journald may
/// block it, and it must not hold up the cooperative pool) takes every queued entry at once
/// and writes them to the ``LogTarget``. After entries were dropped, the thread writes one
/// entry of its own, once the queue has room again: priority warning, "journal queue was
/// full: N entries dropped", `HERALD_DROPPED=N`, ``JournalMessageID/droppedEntries``.
///
/// Call ``shutdown()`` (or ``flush(timeout:)``) before the process exits, or queued entries
/// are lost; shutdown also happens when the writer is deinitialised.
package final class JournalWriter: Sendable {
    private let queue: JournalQueue
    private let thread: pthread_t
    private let maxSubmitWait: Duration

    /// Starts a writer and its thread.
    ///
    /// - Parameters:
    ///   - target: where entries go.
    ///   - capacity: entries that may wait for the thread before new ones are dropped.
    ///   - syslogIdentifier: `SYSLOG_IDENTIFIER` for `.journal` entries that lack one.
    ///   - maxSubmitWait: how long ``submit(_:)`` may wait for room in a full queue.
    ///   - stallTimeout: how long the thread may take nothing from a congested queue before
    ///     ``releaseIfStalled()`` gives up back-pressure.
    package convenience init(
        target: LogTarget,
        capacity: Int = 65536,
        syslogIdentifier: String = "heraldd",
        maxSubmitWait: Duration = .zero,
        stallTimeout: Duration = .seconds(1)
    ) {
        self.init(
            backend: .forTarget(target, syslogIdentifier: syslogIdentifier),
            capacity: capacity,
            maxSubmitWait: maxSubmitWait,
            stallTimeout: stallTimeout
        )
    }

    /// Starts a writer that hands batches to `backend`; for tests, which may also set the
    /// water marks (by default an eighth of `capacity`, and one batch below).
    package init(
        backend: JournalBackend,
        capacity: Int,
        highWater: Int? = nil,
        lowWater: Int? = nil,
        maxSubmitWait: Duration = .zero,
        stallTimeout: Duration = .seconds(1)
    ) {
        let queue = JournalQueue(capacity: capacity, highWater: highWater, lowWater: lowWater, stallTimeout: stallTimeout)
        self.queue = queue
        self.maxSubmitWait = maxSubmitWait
        self.thread = Self.startThread(queue: queue, backend: backend)
    }

    deinit {
        shutdown()
    }

    /// Queues `entry` for writing; when the queue is full, waits for room at most
    /// `maxSubmitWait`, then drops it and counts the drop.
    package func submit(_ entry: some JournalRecord) {
        queue.offer(entry, maxWait: maxSubmitWait)
    }

    /// Whether callers should pause their intake: the queue is above its high-water mark and
    /// has not yet been taken down to its low-water mark. Cheap; for every request.
    package var isCongested: Bool {
        queue.isCongested
    }

    /// Calls `resume` once the queue is relieved (on the writer's thread, or the caller of
    /// ``releaseIfStalled()`` or ``shutdown()``) and returns true; false, without calling it,
    /// when the queue is not congested.
    package func resumeWhenRelieved(_ resume: @escaping @Sendable () -> Void) -> Bool {
        queue.resumeWhenRelieved(resume)
    }

    /// When the thread has taken nothing from the congested queue for the stall timeout
    /// (journald hangs), stops pushing back — the queue fills, then drops and counts — until
    /// the thread takes it down again, and calls the waiting `resume`s. True when the queue
    /// is not congested (any longer); paused callers call this now and then.
    @discardableResult
    package func releaseIfStalled() -> Bool {
        queue.releaseIfStalled()
    }

    /// What happened to the entries submitted so far.
    package var counters: JournalWriterCounters {
        queue.currentCounters
    }

    /// Waits until every entry queued so far is written, at most `timeout`.
    /// - Returns: false if the timeout passed first.
    @discardableResult
    package func flush(timeout: Duration = .seconds(5)) -> Bool {
        queue.waitUntilDrained(timeout: timeout)
    }

    /// Stops accepting entries, writes the queued ones, and ends the thread. Idempotent.
    ///
    /// Waits for the thread, which may take as long as the target takes to accept the
    /// queued entries; call ``flush(timeout:)`` first to bound that.
    package func shutdown() {
        guard queue.close() else { return }
        if pthread_equal(pthread_self(), thread) == 0 {
            pthread_join(thread, nil)
        } else {
            pthread_detach(thread)
        }
    }

    private final class Loop {
        /// Below this many entries a batch is small, and the thread pauses briefly after it.
        static let coalescingBatchSize = 64
        /// The pause after a small batch: the most it delays an entry on its way to journald.
        static let coalescingMicroseconds: UInt32 = 1000

        let queue: JournalQueue
        let backend: JournalBackend

        init(queue: JournalQueue, backend: JournalBackend) {
            self.queue = queue
            self.backend = backend
        }

        func run() {
            while let batch = queue.take() {
                let submitted = batch.entries.count
                var records = batch.entries
                let reportsDrops = batch.droppedToReport > 0
                if reportsDrops {
                    records.append(JournalWriter.droppedEntriesReport(count: batch.droppedToReport))
                }
                let failed = backend.write(records)
                let failedSubmitted = min(failed, submitted)
                queue.finish(written: submitted - failedSubmitted, failed: failedSubmitted, reportedDrops: reportsDrops)
                if submitted < Self.coalescingBatchSize {
                    // A small batch: let a few more entries gather before waking again, so
                    // a steady trickle does not cost the request path a wake-up per entry.
                    usleep(Self.coalescingMicroseconds)
                }
            }
        }
    }

    private static func startThread(queue: JournalQueue, backend: JournalBackend) -> pthread_t {
        let loop = Unmanaged.passRetained(Loop(queue: queue, backend: backend)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { context in
                herald_set_thread_name("herald-journal")
                Unmanaged<Loop>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            },
            loop
        )
        precondition(result == 0, "cannot start the journal writer thread: errno \(result)")
        return thread
    }

    /// The entry the writer writes after `count` entries were dropped.
    static func droppedEntriesReport(count: UInt64) -> JournalEntry {
        JournalEntry([
            JournalField(unchecked: "PRIORITY", value: String(JournalPriority.warning.rawValue)),
            JournalField(unchecked: "MESSAGE", value: "journal queue was full: \(count) entries dropped"),
            JournalField(unchecked: "HERALD_DROPPED", value: String(count)),
            JournalField(unchecked: "MESSAGE_ID", value: JournalMessageID.droppedEntries),
        ])
    }
}
