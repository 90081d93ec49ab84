import Dispatch
import FoundationEssentials
import HeraldProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A new thread for work that must not hold an event loop: a request placed off it
/// (``MethodPlacement``), a snapshot's encoding.
///
/// Work of seconds runs under `SCHED_IDLE` (``Priority/idle``): only on CPU time the event
/// loops leave, giving way the moment one wakes, so other requests keep their pace (a nice
/// value still lets it hold a core for whole time slices). Under load that keeps both
/// cores busy without a pause, such work waits for the load to ease. Work of milliseconds that a
/// person waits for (a full `list-notifications`) runs at normal priority, sharing the
/// CPU with the event loops as the kernel shares it.
///
/// A thread of its own rather than one of Dispatch's: on Linux a scheduling policy
/// belongs to the thread, and an unprivileged process cannot take it back for the next
/// user of a shared thread. One per request, not a pool: a connection waits for its own
/// reply before it reads on, so the threads are bounded by the connections, and one uid's
/// long requests never queue another's behind them. (Requests at normal priority reuse a
/// thread that finished its last one, never waiting for a busy one: ``ReusableThreads``.)
package enum WorkThread {
    package enum Priority: Sendable {
        /// `SCHED_IDLE`.
        case idle
        /// The process's own.
        case normal
    }

    /// `SCHED_IDLE` from `<sched.h>`, which Glibc's module leaves out.
    private static let schedIdle: Int32 = 5

    /// Runs `work(0)` … `work(iterations - 1)` on as many threads as there are cores, at
    /// `priority`, and returns when every one is done.
    package static func concurrentPerform(
        iterations: Int,
        named name: String,
        priority: Priority = .idle,
        _ work: @escaping @Sendable (Int) -> Void
    ) {
        let next = Mutex(0)
        let threads = min(iterations, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            run(named: name, priority: priority) {
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

    /// Puts the calling thread under `SCHED_IDLE` for good: for a thread that did its
    /// short part under the state's lock at normal priority (a snapshot's copy) and goes on
    /// with work of seconds. Never for a thread that is reused.
    package static func lowerCallingThreadToIdle() {
        #if canImport(Glibc)
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, Self.schedIdle, &parameters)
        #endif
    }

    /// The calling thread's priority: `.idle` under `SCHED_IDLE`, else `.normal`.
    package static var callingThreadPriority: Priority {
        #if canImport(Glibc)
        return sched_getscheduler(0) == Self.schedIdle ? .idle : .normal
        #else
        return .normal
        #endif
    }

    package static func run(named name: String, priority: Priority = .idle, _ body: @escaping @Sendable () -> Void) {
        DetachedThread.start(named: name) {
            #if canImport(Glibc)
            if priority == .idle {
                // 0 is the calling thread.
                var parameters = sched_param(sched_priority: 0)
                _ = sched_setscheduler(0, Self.schedIdle, &parameters)
            }
            #endif
            body()
        }
    }
}
