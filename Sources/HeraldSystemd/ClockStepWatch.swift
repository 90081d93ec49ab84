import CSystemd
import Glibc
import Synchronization

/// Hears the wall clock being set — by hand, by NTP stepping it, or on resume from suspend
/// — and calls `onStep` on a thread of its own: heraldd's alarm then plans again, so that a
/// Focus schedule at 09:00 still changes at 09:00 after the clock jumped.
///
/// A `timerfd` on `CLOCK_REALTIME`, armed for the farthest time it takes with
/// `TFD_TIMER_CANCEL_ON_SET`: its `read` blocks until the kernel cancels it because the
/// clock was set (`ECANCELED`), and never wakes otherwise. Slewing (NTP's gradual
/// adjustment) is not a step and is not heard; it moves the monotonic clock the daemon
/// sleeps on alike.
package final class ClockStepWatch: Sendable {
    private let descriptor: Int32
    private let stopped = Atomic<Bool>(false)
    private let onStep: @Sendable () -> Void

    /// Nil when the kernel offers no such timer: heraldd then re-plans at its longest sleep.
    package init?(onStep: @escaping @Sendable () -> Void) {
        descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.onStep = onStep
        guard arm(at: Self.farthest) else {
            close(descriptor)
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    /// Starts the thread that waits; it returns after ``stop()``.
    package func start() {
        let watch = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                herald_set_thread_name("herald-clock")
                Unmanaged<ClockStepWatch>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, watch)
        if result == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ClockStepWatch>.fromOpaque(watch).release()
        }
    }

    /// Ends the thread: the timer is set to fire at once, and the thread, woken, returns.
    package func stop() {
        stopped.store(true, ordering: .releasing)
        _ = arm(at: timespec(tv_sec: 1, tv_nsec: 0))
    }

    private func run() {
        var expirations: UInt64 = 0
        while !stopped.load(ordering: .acquiring) {
            let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
            if stopped.load(ordering: .acquiring) { return }
            if count < 0, errno == EINTR { continue }
            guard count < 0, errno == ECANCELED else { return }
            // Set again before the call: a step during it cancels the new one too.
            guard arm(at: Self.farthest) else { return }
            onStep()
        }
    }

    /// Arms the timer for the wall clock's `time`, cancelled when the clock is set.
    private func arm(at time: timespec) -> Bool {
        var setting = itimerspec(it_interval: timespec(), it_value: time)
        return timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &setting, nil) == 0
    }

    /// Far enough never to fire: the year 2200, within a 64-bit `time_t` and the kernel's range.
    private static let farthest = timespec(tv_sec: 7_258_118_400, tv_nsec: 0)
}
