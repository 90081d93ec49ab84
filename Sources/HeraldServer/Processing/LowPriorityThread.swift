#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A new thread with a nice value of 10, for work that takes seconds (a `snapshot`
/// request): it yields the CPU to the event loops, so other requests keep their pace.
///
/// A thread of its own rather than one of Dispatch's: on Linux a nice value belongs to
/// the thread, and an unprivileged process cannot lower it again for the next user.
enum LowPriorityThread {
    static func run(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            #if canImport(Glibc)
            // 0 is the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            body()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }
}
