import FoundationEssentials
import HeraldCore

#if canImport(Glibc)
import Glibc
#endif

/// The change log's segments in the state folder: `changes.<n>.log`, `n` counting up from 1,
/// each holding the changes after the snapshot its header names (``ChangeLogFile``).
package struct ChangeLogFolder: Sendable {
    package let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    package func path(ofSegment number: UInt64) -> String {
        folder + "/changes.\(number).log"
    }

    /// The segments' numbers, lowest first.
    package func segmentNumbers() -> [UInt64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> UInt64? in
            guard name.hasPrefix("changes."), name.hasSuffix(".log") else { return nil }
            return UInt64(name.dropFirst("changes.".count).dropLast(".log".count))
        }.sorted()
    }

    /// What recovery replays after the snapshot of `generation` (0: none): the last
    /// segment that begins at that snapshot, and every later one (each begun for a
    /// snapshot that failed, so they continue one another).
    package struct Replay: Sendable {
        /// The records to apply, in order; empty when they were handed on one by one
        /// instead (``replay(after:each:)``).
        package var records: [ChangeRecord] = []
        /// How many records there were to apply.
        package var recordCount = 0
        /// Segments read, by number.
        package var segments: [UInt64] = []
        /// Records and bytes past the first torn or damaged record, dropped.
        package var droppedSegments: [UInt64] = []
        package var droppedBytes = 0
        /// Why something was dropped; nil when nothing was.
        package var problem: String?
        /// Segments that begin at an older snapshot, or that could not be read: not replayed.
        package var ignored: [UInt64] = []
        /// The segment the replay stopped in, and the length of its whole records: cut
        /// there (``cut(_:)``) before anything is appended after it.
        package var stoppedIn: (segment: UInt64, validLength: Int)?
        /// Why a segment could not be read (opened, or read from the disk: not damage, which
        /// ``problem`` says): the replay stopped there, incomplete, and nothing is to be cut
        /// or dropped; heraldd refuses to start rather than go on without what it holds.
        package var readFailure: String?

        package init() {}
    }

    /// Reads the segments to replay after the snapshot of `generation`.
    package func replay(after generation: UInt64) -> Replay {
        var records: [ChangeRecord] = []
        var replay = replay(after: generation) { records.append($0) }
        replay.records = records
        return replay
    }

    /// Whether a replay after the snapshot of `generation` would apply records or drop a
    /// torn tail, from the segments' headers and sizes alone: a segment it would read that
    /// is longer than its header, or whose header does not read, counts (the safe side).
    /// A start asks this before deciding whether the store may restore after the first
    /// answers, without reading and checksumming the whole log for it.
    package func holdsRecords(after generation: UInt64) -> Bool {
        let (numbers, headers) = segmentHeaders()
        guard let first = firstReplayed(after: generation, numbers, headers) else { return false }
        return numbers.contains { number in
            guard number >= first else { return false }
            var status = stat()
            guard headers[number] != nil, stat(path(ofSegment: number), &status) == 0 else { return true }
            return Int(status.st_size) > ChangeLogFile.headerSize
        }
    }

    /// The segments' numbers, lowest first, and the headers of those whose header reads.
    private func segmentHeaders() -> (numbers: [UInt64], headers: [UInt64: ChangeLogFile.Header]) {
        let numbers = segmentNumbers()
        var headers: [UInt64: ChangeLogFile.Header] = [:]
        for number in numbers {
            if let prefix = try? SnapshotStore.readPrefix(path(ofSegment: number), count: ChangeLogFile.headerSize),
                let header = prefix.withUnsafeBytes({ try? ChangeLogFile.readHeader($0) })
            {
                headers[number] = header
            }
        }
        return (numbers, headers)
    }

    /// The segment a replay after the snapshot of `generation` begins with: the last begun
    /// at that snapshot. Nil when there is none, and nothing is replayed.
    private func firstReplayed(after generation: UInt64, _ numbers: [UInt64], _ headers: [UInt64: ChangeLogFile.Header]) -> UInt64? {
        numbers.last { headers[$0]?.baseGeneration == generation && headers[$0]?.continues == false }
    }

    /// The same, handing each record to `each` in order as it is read, rather than keeping
    /// them: nothing after the first torn or damaged record is handed on, nor after a
    /// segment that cannot be read (``Replay/readFailure``).
    package func replay(after generation: UInt64, each: (consuming ChangeRecord) -> Void) -> Replay {
        var replay = Replay()
        let (numbers, headers) = segmentHeaders()
        guard let first = firstReplayed(after: generation, numbers, headers) else {
            replay.ignored = numbers
            return replay
        }
        replay.ignored = numbers.filter { $0 < first }
        var stopped = false
        for number in numbers where number >= first {
            if stopped {
                replay.droppedSegments.append(number)
                continue
            }
            let reading: ChangeLogFile.Reading
            do throws(SnapshotFileError) {
                reading = try ChangeLogFile.read(try OpenSnapshotFile(path: path(ofSegment: number)), each: each)
            } catch {
                // The disk, not the bytes: nothing is known to be damaged, so nothing is cut.
                if error.code == .io {
                    replay.readFailure = "changes.\(number).log: \(error.reason)"
                    return replay
                }
                // A segment begun for a snapshot whose header was torn by a crash: what
                // follows it cannot be placed, so it ends the replay.
                replay.problem = "changes.\(number).log: \(error.reason)"
                replay.droppedSegments.append(number)
                replay.stoppedIn = (number, 0)
                stopped = true
                continue
            }
            replay.segments.append(number)
            replay.recordCount += reading.recordCount
            if let problem = reading.problem {
                replay.droppedBytes += reading.droppedBytes
                replay.problem = "changes.\(number).log: \(problem)"
                replay.stoppedIn = (number, reading.validLength)
                stopped = true
            }
        }
        return replay
    }

    /// Cuts the log where `replay` stopped: the torn or damaged tail is truncated away
    /// (a segment whose header is torn, removed) and the segments after it removed, so
    /// that what is appended next follows the last record applied.
    package func cut(_ replay: Replay) {
        guard let (segment, length) = replay.stoppedIn else { return }
        if length == 0 {
            unlink(path(ofSegment: segment))
        } else {
            truncate(path(ofSegment: segment), off_t(length))
        }
        for number in replay.droppedSegments where number != segment {
            unlink(path(ofSegment: number))
        }
    }

    /// Removes the segments numbered below `number`: the snapshot they led to is durable.
    package func removeSegments(before number: UInt64) {
        for old in segmentNumbers() where old < number {
            unlink(path(ofSegment: old))
        }
    }
}
