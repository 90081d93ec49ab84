import Dispatch
import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The change log as heraldd writes it: records are appended in memory under the state's
/// lock (so the log's order is the order changes were applied), and at each ``commit()``
/// whatever gathered since the last write is written with one `write()` — the requests
/// processed meanwhile share it (group commit) — then `fdatasync`ed per ``Durability``.
/// Connections commit at the end of their event loop's turn; answers wait for
/// ``writtenSequence`` (the server's gate), never an event loop.
///
/// A snapshot begins a new segment when it copies the state (``beginSegment(baseGeneration:)``,
/// under the same lock); once the snapshot is durable, ``snapshotWritten(generation:)``
/// removes the segments before it. A write that fails is reported to ``PersistenceHealth``
/// (changes are then refused, as for snapshots); the log takes nothing more until a
/// snapshot begins a segment that opens. Past its ``ChangeLogBound`` the log asks for the
/// snapshot that compacts it (``whenPastBound(_:)``).
package final class ChangeLog: Sendable {
    package let folder: ChangeLogFolder
    package let durability: Durability
    private let health: PersistenceHealth
    private let now: @Sendable () -> Date

    private struct Part {
        /// Set when the part begins a new segment after the snapshot of this generation.
        var beginsSegmentAfter: UInt64?
        var bytes: [UInt8] = []
        /// The sequence number of the part's last record (of its beginning, for a new segment).
        var lastSequence: UInt64 = 0
    }

    private struct Pending {
        var parts: [Part] = [Part()]
        /// Buffers a write is done with, their bytes kept: the next parts are encoded into
        /// them rather than into new ones grown record by record.
        var spare: [[UInt8]] = []
        /// The sequence number of the last record appended.
        var appended: UInt64 = 0
        var isEmpty: Bool { parts.count == 1 && parts[0].bytes.isEmpty }
        var waiters: [(sequence: UInt64, callback: @Sendable () -> Void)] = []
        var written: UInt64 = 0
        /// Segments begun, by the generation they follow, and whether they opened.
        var begun: [UInt64: (number: UInt64, opened: Bool)] = [:]
        var stopping = false
        var records: UInt64 = 0
        var bound: ChangeLogBound
        var pastBound: (@Sendable () -> Void)?
        var compactions: UInt64 = 0

        /// An empty part, in a spare buffer when there is one.
        mutating func newPart(beginsSegmentAfter base: UInt64? = nil, lastSequence: UInt64 = 0) -> Part {
            Part(beginsSegmentAfter: base, bytes: spare.popLast() ?? [], lastSequence: lastSequence)
        }

        /// Takes `bytes` back as a spare, unless it grew past what is worth keeping.
        mutating func reuse(_ bytes: inout [UInt8]) {
            guard spare.count < 4, bytes.capacity <= 1 << 20 else { return }
            bytes.removeAll(keepingCapacity: true)
            spare.append(bytes)
        }
    }

    /// The open segment, and whether it holds writes not yet synced: whoever holds it writes.
    private struct Output: @unchecked Sendable {
        var writer: SegmentWriter?
        var dirty = false
        var lastSync = ContinuousClock.now
    }

    private let pending: Mutex<Pending>
    private let output: Mutex<Output>
    private let appendedAtomic = Atomic<UInt64>(0)
    private let writtenAtomic = Atomic<UInt64>(0)
    /// The writing thread waits without a timeout: an append must wake it.
    private let writerAsleep = Atomic<Bool>(false)
    /// Under `log`: the writing thread is woken to write and sync, and has not yet begun.
    private let syncAsked = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let counters = Mutex(Counters())

    /// Figures for `stats.changeLog`.
    package struct Counters: Sendable {
        package var records: UInt64 = 0
        package var writes: UInt64 = 0
        package var syncs: UInt64 = 0
        package var bytes: UInt64 = 0
        package var failures: UInt64 = 0
        package var segment: UInt64 = 0
        /// Bytes of the log after the last snapshot's copy, and the size past which it asks
        /// for a snapshot (``ChangeLogBound``).
        package var sinceSnapshotBytes: UInt64 = 0
        package var compactAtBytes: UInt64 = 0
        /// Snapshots the log asked for by its size.
        package var compactions: UInt64 = 0
    }

    /// Opens a new segment after the snapshot of `baseGeneration` — `continuing` the
    /// segments replayed at start, if any — and starts the writing thread. A segment that
    /// cannot be made is reported to `health`; the log then takes nothing until a snapshot
    /// begins one that opens. `snapshotBytes` is the size of the snapshot loaded, and
    /// `continuedBytes` that of the segments continued, for the log's ``ChangeLogBound``.
    package init(
        folder: String, durability: Durability, baseGeneration: UInt64, continuing: Bool, health: PersistenceHealth,
        snapshotBytes: Int = 0, continuedBytes: Int = 0, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.folder = ChangeLogFolder(folder: folder)
        self.durability = durability
        self.health = health
        self.now = now
        let number = (self.folder.segmentNumbers().last ?? 0) + 1
        self.pending = Mutex(
            Pending(bound: ChangeLogBound(snapshotBytes: snapshotBytes, logBytes: continuedBytes + ChangeLogFile.headerSize)))
        self.output = Mutex(Output())
        var writer: SegmentWriter?
        do throws(SnapshotFileError) {
            writer = try SegmentWriter.open(
                self.folder, number: number, baseGeneration: baseGeneration, createdAt: now(), continues: continuing)
            counters.withLock { $0.segment = number }
        } catch {
            fail(error.reason)
        }
        output.withLock { $0.writer = writer }
        DetachedThread.start(named: "herald-changelog") { [self] in self.writeLoop() }
    }

    /// The sequence number of the last record appended.
    package var appendedSequence: UInt64 { appendedAtomic.load(ordering: .acquiring) }
    /// The sequence number of the last record written (and synced, with `--durability log`).
    package var writtenSequence: UInt64 { writtenAtomic.load(ordering: .acquiring) }

    package var figures: Counters {
        var figures = counters.withLock { $0 }
        pending.withLock { pending in
            figures.sinceSnapshotBytes = UInt64(pending.bound.logBytes)
            figures.compactAtBytes = UInt64(pending.bound.limit)
            figures.compactions = pending.compactions
        }
        return figures
    }

    /// Calls `handler` whenever the log passes its ``ChangeLogBound`` (at once if it has
    /// already), at most once per segment: it should start the snapshot that compacts the
    /// log. It is called under the state's lock, so it must only hand the work on.
    package func whenPastBound(_ handler: (@Sendable () -> Void)?) {
        let ask = pending.withLock { pending -> Bool in
            pending.pastBound = handler
            guard handler != nil, pending.bound.logBytes > pending.bound.limit else { return false }
            _ = pending.bound.ask()
            pending.compactions += 1
            return true
        }
        if ask { handler?() }
    }

    /// Appends `record`; call it under the state's lock, right after the change, so that
    /// records are in the order changes were applied. Returns its sequence number.
    /// `answered`: a connection answers the change, and commits the log at the end of its
    /// event loop's turn (``commit()``); any other change is committed at once. heraldd
    /// appends records made before the lock instead (``append(prepared:appliedAt:answered:)``,
    /// ``append(preparedRequest:appliedAt:generated:answered:)``).
    @discardableResult
    package func append(_ record: ChangeRecord, answered: Bool = false) -> UInt64 {
        appendFramed(answered: answered) { bytes in ChangeLogFile.appendRecord(to: &bytes) { record.encodeBody(into: &$0) } }
    }

    /// Appends a donation's record made before the state's lock
    /// (``ChangeRecord/preparedDonation(by:app:interaction:)``), with the time the rule saw:
    /// under the lock only that time and the checksum are written, and the bytes copied.
    @discardableResult
    package func append(prepared record: inout [UInt8], appliedAt: Date, answered: Bool = false) -> UInt64 {
        ChangeRecord.seal(&record, appliedAt: appliedAt)
        // From its buffer, borrowed: appended as an array, the record was retained for the
        // call and released after it, under the pending part's lock.
        return record.withUnsafeBufferPointer { record in appendFramed(answered: answered) { $0.append(contentsOf: record) } }
    }

    /// Appends a request's record made before the state's lock
    /// (``ChangeRecord/preparedRequest(method:caller:params:)``), with the time the rule saw
    /// and the values it drew.
    @discardableResult
    package func append(preparedRequest record: inout [UInt8], appliedAt: Date, generated: [String], answered: Bool = false) -> UInt64 {
        ChangeRecord.sealRequest(&record, appliedAt: appliedAt, generated: generated)
        return record.withUnsafeBufferPointer { record in appendFramed(answered: answered) { $0.append(contentsOf: record) } }
    }

    /// Appends the framed record `write` appends to the pending part, and wakes whoever
    /// writes it.
    private func appendFramed(answered: Bool, _ write: (inout [UInt8]) -> Void) -> UInt64 {
        let (sequence, pastBound) = pending.withLock { pending in
            let last = pending.parts.count - 1
            let before = pending.parts[last].bytes.count
            write(&pending.parts[last].bytes)
            var pastBound: (@Sendable () -> Void)?
            if pending.bound.appended(pending.parts[last].bytes.count - before), let handler = pending.pastBound {
                pending.compactions += 1
                pastBound = handler
            }
            pending.appended += 1
            pending.records += 1
            pending.parts[last].lastSequence = pending.appended
            appendedAtomic.store(pending.appended, ordering: .releasing)
            return (pending.appended, pastBound)
        }
        pastBound?()
        // A connection's answer commits its change (``commit()``). With `log`, the thread
        // writes and syncs any other change at once; with `log-everysec`, it is woken only
        // from its sleep without a timeout (`tick:` records), and writes within a second.
        if durability == .log {
            if !answered { askForSync() }
        } else {
            wakeWriterIfAsleep()
        }
        return sequence
    }

    /// Begins a new segment for the snapshot of `generation` being copied now; call it under
    /// the state's lock, with the copy.
    package func beginSegment(baseGeneration generation: UInt64) {
        // A sequence number of its own, so that waiting for it waits for the segment's opening.
        pending.withLock { pending in
            pending.appended += 1
            pending.parts.append(pending.newPart(beginsSegmentAfter: generation, lastSequence: pending.appended))
            pending.bound.segmentBegun(headerBytes: ChangeLogFile.headerSize)
            appendedAtomic.store(pending.appended, ordering: .releasing)
        }
        writerAsleep.store(false, ordering: .releasing)
        wake.signal()
    }

    /// Has what is appended now written, and with `log` synced: a connection calls it at
    /// the end of its event loop's turn, so that the answers of every request the loop read
    /// in that turn share one write (group commit; docs/performance.md, "Durability").
    ///
    /// Under `log-everysec` it writes on the calling thread unless another thread is
    /// writing (which may have taken its parts already: the writing thread then writes at
    /// once) — one `write()` to the page cache, never a sync, nor a segment's opening: what
    /// an event loop may do before it answers, as redis writes its AOF before replying.
    /// Under `log` it wakes the writing thread, which writes and syncs; never a wait.
    package func commit() {
        guard durability == .logEverysec else { return askForSync() }
        let result = output.withLockIfAvailable { output in pass(&output, onEventLoop: true) }
        guard let (callbacks, wrote) = result else {
            writerAsleep.store(false, ordering: .releasing)
            wake.signal()
            return
        }
        for callback in callbacks { callback() }
        // Dirty now: the thread syncs within a second, even if it slept without a timeout.
        if wrote { wakeWriterIfAsleep() }
    }

    /// Wakes the writing thread from its sleep without a timeout, if it is in it.
    ///
    /// Read first: under load the thread is not asleep, and an exchange on every record
    /// would take the flag's cache line from the other core each time. The thread sets the
    /// flag before it looks at `pending` and at `output`'s dirtiness under their locks,
    /// under which each record is appended and each write made, so a thread about to sleep
    /// is seen here.
    private func wakeWriterIfAsleep() {
        if writerAsleep.load(ordering: .acquiring), writerAsleep.exchange(false, ordering: .acquiringAndReleasing) {
            wake.signal()
        }
    }

    /// Under `log`: wakes the writing thread, unless it is asked already and has not yet
    /// taken what is pending.
    private func askForSync() {
        if !syncAsked.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Calls `callback` (on the thread that writes it, or here) once `sequence` is written;
    /// ``commit()`` has it written.
    package func whenWritten(_ sequence: UInt64, _ callback: @escaping @Sendable () -> Void) {
        let now = pending.withLock { pending -> Bool in
            if pending.written >= sequence { return true }
            pending.waiters.append((sequence, callback))
            return false
        }
        if now { callback() }
    }

    /// Blocks until `sequence` is written: for threads that may wait (never an event loop).
    package func waitUntilWritten(_ sequence: UInt64) {
        guard writtenSequence < sequence else { return }
        let done = DispatchSemaphore(value: 0)
        whenWritten(sequence) { done.signal() }
        commit()
        done.wait()
    }

    /// After the snapshot of `generation` (`bytes` long) is durable: removes the segments
    /// before the one begun for it. Returns why the log is not whole after it, or nil.
    package func snapshotWritten(generation: UInt64, bytes: Int) -> String? {
        // Past the segment's beginning, which has a sequence number of its own.
        waitUntilWritten(appendedSequence)
        let pastBound = pending.withLock { pending -> (@Sendable () -> Void)? in
            guard pending.bound.snapshotWritten(bytes: bytes), let handler = pending.pastBound else { return nil }
            pending.compactions += 1
            return handler
        }
        pastBound?()
        guard let begun = pending.withLock({ $0.begun[generation] }) else { return nil }
        guard begun.opened else {
            return "The change log's segment \(folder.path(ofSegment: begun.number)) could not be made"
        }
        folder.removeSegments(before: begun.number)
        pending.withLock { pending in pending.begun = pending.begun.filter { $0.value.number >= begun.number } }
        return nil
    }

    /// Writes what is pending, syncs, and stops the writing thread.
    package func stop() {
        pending.withLock { $0.stopping = true }
        wake.signal()
        stopped.wait()
    }

    // MARK: The writing thread

    private func writeLoop() {
        while true {
            if durability == .logEverysec {
                let (dirty, lastSync) = output.withLock { ($0.dirty, $0.lastSync) }
                if dirty {
                    let left = lastSync + .seconds(1) - ContinuousClock.now
                    if left > .zero {
                        let nanos = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
                        _ = wake.wait(timeout: .now() + .nanoseconds(Int(nanos)))
                    }
                } else {
                    // Asleep until an append: at rest, nothing wakes once a second. The flag
                    // is set before both looks: an event loop that wrote meanwhile
                    // (``commit()``) made the segment dirty under `output`'s lock, and then
                    // finds the flag set and wakes the thread to sync within the second.
                    writerAsleep.store(true, ordering: .releasing)
                    if pending.withLock({ $0.isEmpty && !$0.stopping }), !output.withLock({ $0.dirty }) {
                        wake.wait()
                    } else {
                        writerAsleep.store(false, ordering: .releasing)
                    }
                }
            } else {
                wake.wait()
                syncAsked.store(false, ordering: .releasing)
            }
            let (callbacks, _, stopping) = output.withLock { output in
                let (callbacks, wrote) = pass(&output, onEventLoop: false)
                return (callbacks, wrote, pending.withLock { $0.stopping })
            }
            for callback in callbacks { callback() }
            if stopping {
                output.withLock { $0.writer?.close() }
                stopped.signal()
                return
            }
        }
    }

    /// Writes what is pending (on an event loop: up to the next segment's beginning) and
    /// syncs when the mode says so (never on an event loop); returns the callbacks of the
    /// records now written, and whether anything was.
    private func pass(_ output: inout Output, onEventLoop: Bool) -> (callbacks: [@Sendable () -> Void], wrote: Bool) {
        var parts: [Part]
        let stopping: Bool
        (parts, stopping) = pending.withLock { pending -> ([Part], Bool) in
            if onEventLoop {
                // A segment to open first is the writing thread's.
                guard pending.parts[0].beginsSegmentAfter == nil else { return ([], false) }
                let first = pending.parts.removeFirst()
                if pending.parts.isEmpty { pending.parts = [pending.newPart()] }
                return ([first], false)
            }
            defer { pending.parts = [pending.newPart()] }
            return (pending.parts, pending.stopping)
        }
        var wroteBytes = 0
        var upTo: UInt64 = 0
        for part in parts {
            upTo = max(upTo, part.lastSequence)
            if let base = part.beginsSegmentAfter {
                output.writer = openSegment(after: base, replacing: output.writer)
            }
            guard !part.bytes.isEmpty else { continue }
            guard let current = output.writer else { continue }  // Broken until a segment opens.
            do throws(SnapshotFileError) {
                try current.write(part.bytes)
                wroteBytes += part.bytes.count
            } catch {
                fail(error.reason)
                current.close()
                output.writer = nil
            }
        }
        if wroteBytes > 0 {
            output.dirty = true
            counters.withLock {
                $0.writes += 1
                $0.bytes += UInt64(wroteBytes)
            }
        }
        if !onEventLoop, let current = output.writer, output.dirty,
            durability == .log || stopping || ContinuousClock.now - output.lastSync >= .seconds(1)
        {
            do throws(SnapshotFileError) {
                try current.sync()
                counters.withLock { $0.syncs += 1 }
            } catch {
                fail(error.reason)
                current.close()
                output.writer = nil
            }
            output.dirty = false
            output.lastSync = ContinuousClock.now
        }
        // Records of a part that could not be written are released too: their change is in
        // memory and the failure is reported (refused from now on, by default).
        let callbacks = pending.withLock { pending -> [@Sendable () -> Void] in
            for index in parts.indices { pending.reuse(&parts[index].bytes) }
            pending.written = max(pending.written, upTo)
            writtenAtomic.store(pending.written, ordering: .releasing)
            let records = pending.records
            counters.withLock { $0.records = records }
            guard !pending.waiters.isEmpty else { return [] }
            let ready = pending.waiters.filter { $0.sequence <= pending.written }
            pending.waiters.removeAll { $0.sequence <= pending.written }
            return ready.map(\.callback)
        }
        return (callbacks, wroteBytes > 0)
    }

    private func openSegment(after base: UInt64, replacing old: SegmentWriter?) -> SegmentWriter? {
        let number = (folder.segmentNumbers().last ?? 0) + 1
        do throws(SnapshotFileError) {
            if let old { try old.sync() }
            old?.close()
            let opened = try SegmentWriter.open(folder, number: number, baseGeneration: base, createdAt: now())
            pending.withLock { $0.begun[base] = (number, true) }
            counters.withLock { $0.segment = number }
            return opened
        } catch {
            old?.close()
            pending.withLock { $0.begun[base] = (number, false) }
            fail(error.reason)
            return nil
        }
    }

    private func fail(_ cause: String) {
        counters.withLock { $0.failures += 1 }
        health.recordFailure(cause: "change log: " + cause, at: now(), unwrittenChanges: 0)
    }
}

/// One open segment.
private final class SegmentWriter: @unchecked Sendable {
    let fd: Int32
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Creates segment `number` with its header, synced with its folder entry.
    static func open(
        _ folder: ChangeLogFolder, number: UInt64, baseGeneration: UInt64, createdAt: Date, continues: Bool = false
    ) throws(SnapshotFileError) -> SegmentWriter {
        let path = folder.path(ofSegment: number)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SnapshotStore.ioError("Cannot create \(path)") }
        let writer = SegmentWriter(fd: fd, path: path)
        do throws(SnapshotFileError) {
            try writer.write(ChangeLogFile.header(baseGeneration: baseGeneration, createdAt: createdAt, continues: continues))
            try writer.sync()
            let dir = Glibc.open(folder.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard dir >= 0 else { throw SnapshotStore.ioError("Cannot open \(folder.folder) to fsync it") }
            defer { Glibc.close(dir) }
            guard fsync(dir) == 0 else { throw SnapshotStore.ioError("Cannot fsync \(folder.folder)") }
        } catch {
            writer.close()
            unlink(path)
            throw error
        }
        return writer
    }

    func write(_ bytes: [UInt8]) throws(SnapshotFileError) {
        try SnapshotStore.writeAll(fd, bytes, path: path)
    }

    func sync() throws(SnapshotFileError) {
        guard fdatasync(fd) == 0 else { throw SnapshotStore.ioError("Cannot fdatasync \(path)") }
    }

    func close() {
        Glibc.close(fd)
    }
}
