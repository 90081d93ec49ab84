import Dispatch
import Glibc
import Synchronization
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    /// The journal queue's back-pressure: congested from the high-water mark until the writer
    /// has taken it down to the low-water mark, and given up when the writer is stuck.
    @Suite("JournalWriter back-pressure")
    struct JournalBackPressureTests {
        typealias Backend = JournalWriterTests.RecordingBackend

        static func entry(_ number: Int) -> JournalEntry {
            JournalWriterTests.entry(number)
        }

        /// A `resume` for ``JournalWriter/resumeWhenRelieved(_:)`` that counts its calls.
        final class Resumes: Sendable {
            let called = DispatchSemaphore(value: 0)
            let count = Mutex(0)

            var resume: @Sendable () -> Void {
                {
                    self.count.withLock { $0 += 1 }
                    self.called.signal()
                }
            }
        }

        @Test func congestedFromHighWaterUntilTakenDownToLowWater() {
            let recorder = Backend(holdsFirstBatch: true)
            let writer = JournalWriter(backend: recorder.backend, capacity: 8, highWater: 4, lowWater: 1)
            defer { writer.shutdown() }
            let resumes = Resumes()

            #expect(!writer.resumeWhenRelieved(resumes.resume), "not congested: nothing to wait for")
            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success, "writer thread took the first entry")
            for number in 1...3 {
                writer.submit(Self.entry(number))
            }
            #expect(!writer.isCongested, "three waiting entries are below the high-water mark")
            writer.submit(Self.entry(4))
            #expect(writer.isCongested)
            #expect(writer.resumeWhenRelieved(resumes.resume))
            #expect(writer.resumeWhenRelieved(resumes.resume))
            #expect(!writer.releaseIfStalled(), "the writer took its batch less than a second ago")
            #expect(resumes.count.withLock { $0 } == 0)

            recorder.release.signal()
            #expect(resumes.called.wait(timeout: .now() + 5) == .success)
            #expect(resumes.called.wait(timeout: .now() + 5) == .success)
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(!writer.isCongested)
            #expect(resumes.count.withLock { $0 } == 2, "each resume is called once")
            #expect(writer.counters == JournalWriterCounters(written: 5, dropped: 0, failed: 0, dropReports: 0))
        }

        @Test func aStuckWriterIsGivenUpOnAndTheFullQueueDropsUntilItMovesAgain() {
            let recorder = Backend(holdsFirstBatch: true)
            let writer = JournalWriter(
                backend: recorder.backend, capacity: 8, highWater: 4, lowWater: 1, stallTimeout: .milliseconds(100)
            )
            defer { writer.shutdown() }
            let resumes = Resumes()

            writer.submit(Self.entry(0))
            #expect(recorder.entered.wait(timeout: .now() + 5) == .success)
            for number in 1...4 {
                writer.submit(Self.entry(number))
            }
            #expect(writer.resumeWhenRelieved(resumes.resume))
            // The backend holds its first batch: after the stall timeout the pause is given up.
            var released = false
            for _ in 0..<100 where !released {
                released = writer.releaseIfStalled()
                if !released { usleep(20_000) }
            }
            #expect(released)
            #expect(resumes.called.wait(timeout: .now() + 1) == .success, "the waiting resume was called")
            #expect(!writer.isCongested, "given up: callers go on")
            for number in 5...12 {
                writer.submit(Self.entry(number))  // 5...8 fill the queue; 9...12 are dropped
            }
            #expect(!writer.isCongested, "no back-pressure while the writer is stuck")
            #expect(writer.counters.dropped == 4)

            recorder.release.signal()
            #expect(writer.flush(timeout: .seconds(5)))
            for number in 13...16 {
                writer.submit(Self.entry(number))
            }
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(writer.counters == JournalWriterCounters(written: 13, dropped: 4, failed: 0, dropReports: 1))
        }

        @Test func closingResumesWhoeverWaits() {
            let queue = JournalQueue(capacity: 4, highWater: 2, lowWater: 0)
            let resumes = Resumes()
            queue.offer(Self.entry(0))
            queue.offer(Self.entry(1))
            #expect(queue.isCongested)
            #expect(queue.resumeWhenRelieved(resumes.resume))
            #expect(queue.close())
            #expect(resumes.count.withLock { $0 } == 1)
            #expect(!queue.isCongested)
        }
    }
}
