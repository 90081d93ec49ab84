import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Looks at `condition` every `interval` seconds until it holds, for at most `timeout`
/// seconds: for what a child process writes to a file, which no event announces. Whether
/// it held.
package func waitUntil(timeout: Double, interval: Double = 0.02, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return condition()
}
