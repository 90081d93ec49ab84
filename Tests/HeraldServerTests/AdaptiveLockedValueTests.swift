import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HeraldServer

/// The state's lock: whoever yields and tries again, or sleeps on it, holds it alone.
@Suite struct AdaptiveLockedValueTests {
    /// Four threads, each adding to an unguarded count under the lock: no two bodies
    /// overlap and no addition is lost.
    @Test func holdersExcludeEachOther() {
        let locked = AdaptiveLockedValue(0)
        let inside = Atomic(false)
        let overlaps = Atomic(0)
        let threads = 4
        let additions = 50_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<additions {
                locked.withLockedValue { count in
                    if inside.exchange(true, ordering: .sequentiallyConsistent) { overlaps.add(1, ordering: .relaxed) }
                    count += 1
                    inside.store(false, ordering: .sequentiallyConsistent)
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(locked.withLockedValue { $0 } == threads * additions)
    }

    /// A hold far longer than a waiter's tries (each a yield of its CPU): the waiter sleeps
    /// on the mutex and runs as soon as the holder lets go, never before.
    @Test func aWaiterPastItsTriesGetsTheLockWhenItIsLetGo() {
        let locked = AdaptiveLockedValue(0)
        let holding = DispatchSemaphore(value: 0)
        let waited = DispatchSemaphore(value: 0)
        let released = Atomic(false)
        Thread {
            locked.withLockedValue { value in
                holding.signal()
                Thread.sleep(forTimeInterval: 0.05)
                value = 1
                released.store(true, ordering: .sequentiallyConsistent)
            }
        }.start()
        holding.wait()
        let seen = Mutex<(value: Int, released: Bool)?>(nil)
        Thread {
            locked.withLockedValue { value in
                let wasReleased = released.load(ordering: .sequentiallyConsistent)
                seen.withLock { $0 = (value, wasReleased) }
            }
            waited.signal()
        }.start()
        #expect(waited.wait(timeout: .now() + 5) == .success)
        let after = seen.withLock { $0 }
        #expect(after?.value == 1)
        #expect(after?.released == true)
    }
}
