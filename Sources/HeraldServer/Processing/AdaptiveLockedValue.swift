#if canImport(Glibc)
import Glibc
#endif

/// A value behind glibc's adaptive mutex, which spins a little before it sleeps.
///
/// The state's lock is held for a few microseconds per request and taken by every event
/// loop: with a plain mutex, a loop that finds it held sleeps in the kernel and the holder
/// pays a futex wake on release (about 5% of the CPU of a donate flood on two cores). A
/// short spin finds the lock free again instead.
final class AdaptiveLockedValue<Value: Sendable>: @unchecked Sendable {
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
