import CConcurrencyHook
import NIOCore
import NIOPosix

/// Runs heraldd's Swift concurrency (its services, the alarm, awaited continuations) on
/// SwiftNIO's singleton event loops instead of Dispatch's global queues.
///
/// On Linux, the first worker thread of Dispatch's global queues starts a monitor of its
/// pool that wakes the process every second for good (a timer on Dispatch's manager
/// thread): at rest that was heraldd's last wakeup a second. Event loops sleep in
/// `epoll_wait` until they have work or a timer is due. heraldd's own sleeps are the
/// event loops' timers (``EventLoopClock``); its parallel work runs on threads of its own.
package enum EventLoopConcurrency {
    /// Takes over Swift concurrency's global executor; true when it did. Call it on the main
    /// thread, once, before any task runs on the global executor.
    @discardableResult
    package static func takeOver() -> Bool {
        if NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() { return true }
        return installHook()
    }

    /// The runtime's hook: `(job, original) -> Void`, in Swift's calling convention.
    private typealias EnqueueGlobal = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// What SwiftNIO's take-over does, for a program linked with the Swift runtime statically
    /// (as `make install` installs heraldd), where SwiftNIO cannot find the hook: each job
    /// goes to one of the singleton event loops. Without it such a heraldd woke every second
    /// at rest (docs/performance.md, "At rest").
    private static func installHook() -> Bool {
        guard let hook = herald_enqueue_global_hook(), hook.pointee == nil else { return false }
        let enqueue: EnqueueGlobal = { job, _ in
            MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
        }
        hook.pointee = unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self)
        return true
    }
}
