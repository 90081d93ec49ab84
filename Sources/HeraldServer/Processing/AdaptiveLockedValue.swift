#if canImport(Glibc)
import Glibc
#endif

/// A value behind glibc's adaptive mutex, which a thread that finds it held tries again,
/// giving up its CPU between tries, before it sleeps on it.
///
/// The state's lock is held for a few microseconds per request and taken by every event
/// loop. With a plain mutex, a loop that finds it held sleeps in the kernel and the holder
/// pays a futex wake on release. The adaptive mutex spins a little first, but on a host
/// whose CPUs are busy (clients beside Herald) the holder is often off its CPU, the spin
/// runs out, and the waiter sleeps after all.
///
/// So a thread that finds the lock held yields its CPU (`sched_yield`, which lets the
/// holder or a client run) and tries again, up to ``tries`` times, and only then sleeps on
/// the mutex. Spinning instead burns the CPU a preempted holder needs. The figures, and
/// the ways tried and not kept: docs/performance.md, "Where a request's time goes".
final class AdaptiveLockedValue<Value: Sendable>: @unchecked Sendable {
    /// How many times a thread that finds the lock held yields and tries again before it
    /// sleeps on it: long enough for a request's hold, short of a long one (a large
    /// deletion's step), where a sleeping waiter costs nothing.
    static var tries: Int { 64 }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        let created = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(created == 0, "pthread_mutex_init failed: \(created)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value locked.
    func withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    private func lock() {
        var tries = 0
        while pthread_mutex_trylock(mutex) != 0 {
            tries += 1
            guard tries < Self.tries else {
                pthread_mutex_lock(mutex)
                return
            }
            sched_yield()
        }
    }
}
