#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// herald-notify's log: one line per event on standard error, which systemd hands to the
/// journal. Never message content: app names, identifiers, counts and errors only.
enum Log {
    static func info(_ line: String) {
        var bytes = Array("herald-notify: \(line)\n".utf8)
        bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
