import Dispatch
import Synchronization
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("JournalWriter")
    struct JournalWriterTests {
        /// A backend that records every batch, and holds the first one until released.
        final class RecordingBackend: Sendable {
            let batches = Mutex<[[JournalEntry]]>([])
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holdsFirstBatch: Bool

            init(holdsFirstBatch: Bool) {
                self.holdsFirstBatch = holdsFirstBatch
            }

            var backend: JournalBackend {
                JournalBackend { batch in
                    let isFirst = self.batches.withLock { batches in
                        batches.append(batch.map { $0.journalEntry() })
                        return batches.count == 1
                    }
                    if isFirst && self.holdsFirstBatch {
                        self.entered.signal()
                        self.release.wait()
                    }
                    return 0
                }
            }

            var recorded: [[JournalEntry]] { batches.withLock { $0 } }
        }

        static func entry(_ number: Int) -> JournalEntry {
            JournalEntry([JournalField(unchecked: "MESSAGE", value: "entry \(number)")])
        }

        @Test func dropsWhenFullAndReportsOnceThereIsRoom() throws {
            let recorder = RecordingBackend(holdsFirstBatch: true)
            let writer = JournalWriter(backend: recorder.backend, capacity: 4)
            defer { writer.shutdown() }

            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success, "writer thread took the first entry")
            for number in 1...7 {
                writer.submit(Self.entry(number))  // 1...4 fill the queue; 5...7 are dropped
            }
            #expect(writer.counters == JournalWriterCounters(written: 0, dropped: 3, failed: 0, dropReports: 0))
            #expect(!writer.flush(timeout: .milliseconds(50)), "flush is bounded while the backend is stuck")

            recorder.release.signal()
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(writer.counters == JournalWriterCounters(written: 5, dropped: 3, failed: 0, dropReports: 1))

            let batches = recorder.recorded
            #expect(batches.count == 2)
            #expect(batches.first == [Self.entry(0)])
            let second = try #require(batches.last)
            #expect(Array(second.prefix(4)) == (1...4).map(Self.entry))
            let report = try #require(second.last)
            #expect(report.fields.map(\.name) == ["PRIORITY", "MESSAGE", "HERALD_DROPPED", "MESSAGE_ID"])
            #expect(report["PRIORITY"] == "4")
            #expect(report["MESSAGE"] == "journal queue was full: 3 entries dropped")
            #expect(report["HERALD_DROPPED"] == "3")
            #expect(report["MESSAGE_ID"] == "0b0c9b2c1d8e4f6aa3b1f1e2d3c4b5a6")

            // Drops are reported once: more entries bring no second report.
            writer.submit(Self.entry(8))
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(recorder.recorded.last == [Self.entry(8)])
            #expect(writer.counters.dropReports == 1)
        }

        @Test func aFullQueueWaitsForRoomWithinTheBoundInsteadOfDropping() {
            let recorder = RecordingBackend(holdsFirstBatch: true)
            let writer = JournalWriter(backend: recorder.backend, capacity: 2, maxSubmitWait: .seconds(10))
            defer { writer.shutdown() }

            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success)
            writer.submit(Self.entry(1))
            writer.submit(Self.entry(2))  // the queue is full now
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) {
                recorder.release.signal()
            }
            writer.submit(Self.entry(3))  // waits until the writer takes 1 and 2
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(writer.counters == JournalWriterCounters(written: 4, dropped: 0, failed: 0, dropReports: 0))
        }

        @Test func aFullQueueDropsOnceTheBoundedWaitIsOver() {
            let recorder = RecordingBackend(holdsFirstBatch: true)
            let writer = JournalWriter(backend: recorder.backend, capacity: 1, maxSubmitWait: .milliseconds(50))
            defer { writer.shutdown() }

            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success)
            writer.submit(Self.entry(1))
            let start = ContinuousClock.now
            writer.submit(Self.entry(2))  // the backend is stuck: dropped after about 50 ms
            #expect(ContinuousClock.now - start >= .milliseconds(40))
            #expect(writer.counters.dropped == 1)
            recorder.release.signal()
            #expect(writer.flush(timeout: .seconds(5)))
        }

        /// A full queue gets room back after each slice the writer takes, not only once the
        /// writer has written the whole queue.
        @Test func takesAtMostOneSliceAtATimeInOrder() throws {
            let recorder = RecordingBackend(holdsFirstBatch: true)
            let count = JournalQueue.maximumBatch * 2 + 100
            let writer = JournalWriter(backend: recorder.backend, capacity: count)
            defer { writer.shutdown() }

            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success)
            for number in 1...count {
                writer.submit(Self.entry(number))
            }
            recorder.release.signal()
            #expect(writer.flush(timeout: .seconds(10)))
            let batches = recorder.recorded
            #expect(batches.map(\.count) == [1, JournalQueue.maximumBatch, JournalQueue.maximumBatch, 100])
            #expect(batches.flatMap { $0 } == (0...count).map(Self.entry))
            #expect(writer.counters == JournalWriterCounters(written: UInt64(count + 1), dropped: 0, failed: 0, dropReports: 0))
        }

        @Test func shutdownWritesWhatIsQueuedThenRefuses() {
            let recorder = RecordingBackend(holdsFirstBatch: false)
            let writer = JournalWriter(backend: recorder.backend, capacity: 1000)
            for number in 0..<500 {
                writer.submit(Self.entry(number))
            }
            writer.shutdown()
            #expect(recorder.recorded.flatMap { $0 } == (0..<500).map(Self.entry))
            writer.submit(Self.entry(500))
            writer.shutdown()
            #expect(writer.counters == JournalWriterCounters(written: 500, dropped: 1, failed: 0, dropReports: 0))
        }

        @Test func countsFailuresSeparately() {
            let writer = JournalWriter(backend: JournalBackend { batch in batch.count }, capacity: 8)
            defer { writer.shutdown() }
            writer.submit(Self.entry(1))
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(writer.counters == JournalWriterCounters(written: 0, dropped: 0, failed: 1, dropReports: 0))
        }

        @Test func noneTargetCountsEntriesAsWritten() {
            let writer = JournalWriter(target: .none, capacity: 8)
            defer { writer.shutdown() }
            for number in 0..<3 {
                writer.submit(Self.entry(number))
            }
            #expect(writer.flush())
            #expect(writer.counters.written == 3)
        }

        @Test func resolvesTargets() {
            #expect(LogTarget.resolve("journal") == .journal)
            #expect(LogTarget.resolve("console") == .console)
            #expect(LogTarget.resolve("none") == LogTarget.none)
            #expect(LogTarget.resolve("syslog") == nil)
            #expect(LogTarget.resolve("auto") == (LogTarget.journalSocketExists() ? .journal : .console))
        }
    }
}

extension JournalWriterCounters {
    init(written: UInt64, dropped: UInt64, failed: UInt64, dropReports: UInt64) {
        self.init()
        self.written = written
        self.dropped = dropped
        self.failed = failed
        self.dropReports = dropReports
    }
}
