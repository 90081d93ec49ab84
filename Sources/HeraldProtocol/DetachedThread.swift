import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of Herald's own — the change log's writer, a snapshot's workers, the watchdog's
/// pings, a request placed off the event loops — started detached on a POSIX thread, as
/// Foundation's `Thread` did, without bringing swift-corelibs-foundation (and so ICU) into
/// the program (docs/performance.md, "Programs' size and start-up").
package enum DetachedThread {
    /// Runs `body` on a new thread named `name` (its first 15 bytes, the kernel's limit),
    /// with an 8 MiB stack.
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Context(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            _ = setThreadName(pthread_self(), String(decoding: context.name.utf8.prefix(15), as: UTF8.self))
            context.body()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        precondition(result == 0, "cannot start the thread \(name): \(String(cString: strerror(result)))")
    }

    /// Sleeps the calling thread for `seconds`, resuming after a signal's interruption.
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    private final class Context: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}

/// glibc's `pthread_setname_np`, a GNU extension the Glibc module leaves out.
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
