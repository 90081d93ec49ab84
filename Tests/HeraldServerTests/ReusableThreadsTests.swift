import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HeraldServer

/// Threads kept for the next request: reused when parked, never a queue, ended when idle.
@Suite struct ReusableThreadsTests {
    /// Waits (up to 10 s) until `condition` holds.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date() + 10
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    @Test func aParkedThreadTakesTheNextWork() {
        let threads = ReusableThreads(named: "herald-test")
        let seen = Mutex<[UInt]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            threads.run {
                seen.withLock { $0.append(UInt(pthread_self())) }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(eventually { threads.parkedCount == 1 })
        }
        #expect(Set(seen.withLock { $0 }).count == 1)
    }

    @Test func workNeverWaitsForOtherWork() {
        let threads = ReusableThreads(named: "herald-test")
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Each blocks until all have started: queued behind one another, they never would.
        for _ in 0..<4 {
            threads.run {
                started.signal()
                release.wait()
            }
        }
        let allStarted = (0..<4).allSatisfy { _ in started.wait(timeout: .now() + 10) == .success }
        #expect(allStarted)
        for _ in 0..<4 { release.signal() }
        #expect(eventually { threads.parkedCount == 4 })
    }

    @Test func aThreadParkedLongerThanItsTimeEnds() {
        let threads = ReusableThreads(named: "herald-test", keepFor: 0.05)
        let done = DispatchSemaphore(value: 0)
        threads.run { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(eventually { threads.parkedCount == 0 })
    }

    @Test func workHandedAsAThreadGivesUpIsStillDone() {
        // Parked for a millisecond: many of these runs meet a thread just as it gives up.
        let threads = ReusableThreads(named: "herald-test", keepFor: 0.001)
        let count = Atomic(0)
        let group = DispatchGroup()
        for index in 0..<2000 {
            group.enter()
            threads.run {
                count.add(1, ordering: .relaxed)
                group.leave()
            }
            if index % 3 == 0 { usleep(UInt32(index % 5) * 300) }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(count.load(ordering: .relaxed) == 2000)
    }
}

extension ReusableThreadsTests {
    @Test func aParkedThreadKeepsNothingOfItsLastWork() {
        final class Captured: Sendable {}
        let threads = ReusableThreads(named: "herald-test")
        let done = DispatchSemaphore(value: 0)
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            threads.run {
                _ = captured
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(eventually { threads.parkedCount == 1 })
        #expect(eventually { weakCaptured == nil })
    }
}
