import FoundationEssentials
import HeraldCore
import NIOCore
import NIOPosix

/// The wall clock, sleeping on a timer of SwiftNIO's event loops rather than Dispatch's.
///
/// `Task.sleep` runs its timer on Dispatch's global queues, and the first thread of those
/// starts Dispatch's pool monitor, which wakes the process every second for as long as it
/// lives; heraldd, asleep at rest, starts none (``EventLoopConcurrency``). An event loop
/// with a timer armed sleeps in `epoll_wait` until it.
package struct EventLoopClock: HeraldClock {
    private let loop: any EventLoop

    package init(loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()) {
        self.loop = loop
    }

    package func now() -> Date { Date() }

    package func sleep(for seconds: Double) async throws {
        let nanoseconds = Int64((max(0, seconds) * 1e9).rounded(.up))
        let timer = loop.scheduleTask(in: .nanoseconds(nanoseconds)) {}
        try await withTaskCancellationHandler {
            do {
                try await timer.futureResult.get()
            } catch {
                throw CancellationError()
            }
        } onCancel: {
            timer.cancel()
        }
    }

    /// 2 ms past the wall clock's `deadline`, as ``SystemClock`` sleeps.
    package func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()) + 0.002)
    }
}
