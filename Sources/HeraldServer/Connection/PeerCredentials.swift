import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The credentials of the process at the other end of a Unix socket, read with
/// SO_PEERCRED when the connection is accepted.
package struct PeerCredentials: Sendable, Hashable {
    package var uid: UInt32
    package var gid: UInt32
    package var pid: Int32

    package init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }

    /// Reads the peer's credentials from an accepted Unix socket channel.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PeerCredentialsUnavailable())
        }
        let future: EventLoopFuture<UnixCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        return future.map { PeerCredentials(uid: $0.uid, gid: $0.gid, pid: $0.pid) }
    }
}

/// Linux's `struct ucred` (pid_t, uid_t, gid_t), which Glibc's module map does not
/// export without _GNU_SOURCE; the layout is the kernel's ABI.
private struct UnixCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// SO_PEERCRED gave no credentials: the connection is refused rather than served as nobody.
struct PeerCredentialsUnavailable: Error {}
