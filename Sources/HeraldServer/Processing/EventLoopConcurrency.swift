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
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
