import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A new thread under `SCHED_IDLE`, for work that takes seconds (a `snapshot` request):
/// it runs only on CPU time the event loops leave, and gives way the moment one wakes,
/// so other requests keep their pace. (At nice 10 it still held a core for whole time
/// slices: donate's p99 rose 15× during a snapshot; under `SCHED_IDLE`, about 3×.) Under
/// load that keeps both cores busy without a pause, such work waits for the load to ease.
///
/// A thread of its own rather than one of Dispatch's: on Linux a scheduling policy
/// belongs to the thread, and an unprivileged process cannot take it back for the next
/// user of a shared thread.
package enum LowPriorityThread {
    /// `SCHED_IDLE` from `<sched.h>`, which Glibc's module leaves out.
    private static let schedIdle: Int32 = 5

    /// Runs `work(0)` … `work(iterations - 1)` on as many such threads as there are cores,
    /// and returns when every one is done.
    package static func concurrentPerform(
        iterations: Int,
        named name: String,
        _ work: @escaping @Sendable (Int) -> Void
    ) {
        let next = Mutex(0)
        let threads = min(iterations, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            run(named: name) {
                while true {
                    let index = next.withLock { next in
                        defer { next += 1 }
                        return next
                    }
                    guard index < iterations else { break }
                    work(index)
                }
                finished.signal()
            }
        }
        for _ in 0..<threads { finished.wait() }
    }

    package static func run(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            #if canImport(Glibc)
            // 0 is the calling thread.
            var parameters = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, Self.schedIdle, &parameters)
            #endif
            body()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }
}
