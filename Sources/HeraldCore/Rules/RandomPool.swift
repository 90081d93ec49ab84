import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The kernel's random bytes, fetched 4 KiB at a time and handed out 16 at a time.
///
/// glibc 2.36's `arc4random_buf` makes one `getrandom` system call per call, a few
/// microseconds under load that every `update-content` without an identifier would pay.
/// The bytes are the same kernel CSPRNG's; only the number of system calls changes.
final class RandomPool: Sendable {
    static let shared = RandomPool()

    private struct Buffer {
        var bytes = [UInt8](repeating: 0, count: 4096)
        /// The first byte not handed out yet; `bytes.count` when all were.
        var next = 4096
    }

    private let buffer = Mutex(Buffer())

    /// 128 random bits no other call is given.
    func next128() -> (UInt64, UInt64) {
        buffer.withLock { buffer in
            if buffer.next + 16 > buffer.bytes.count {
                buffer.bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                buffer.next = 0
            }
            defer { buffer.next += 16 }
            return buffer.bytes.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: buffer.next, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: buffer.next + 8, as: UInt64.self))
            }
        }
    }
}
