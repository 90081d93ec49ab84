import HeraldCore
import HeraldProcessIdentity
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who the peer of a connection is: its credentials, and the app it was verified to be —
/// read once, when the connection is accepted, from what the kernel and the sandbox set up
/// around the process (``AppEvidence``), never from what it sends.
///
/// Sources, strongest first: a Snap's AppArmor label (`/proc/PID/attr/current`), a
/// Flatpak's `/.flatpak-info` (`/proc/PID/root/.flatpak-info`), the systemd unit a desktop
/// launched the app into (`/proc/PID/cgroup`). The pid is pinned by a pidfd
/// (`SO_PEERPIDFD`) that must still be alive after the reads, so a pid reused by another
/// process is never read as the peer. A host process costs four small procfs reads on the
/// event loop; the costly ones (an AppArmor label, `mountinfo`) are made only where they can
/// matter, and a file system that could stall a read (FUSE, overlay) at the root or
/// `/.flatpak-info` is not read (docs/operations.md#threat-model has the figures).
package struct PeerIdentity: Sendable, Hashable {
    /// What the reads found.
    package typealias App = ProcessApp

    package var credentials: PeerCredentials
    package var app: App

    package init(credentials: PeerCredentials, app: App) {
        self.credentials = credentials
        self.app = app
    }

    /// Reads the peer's credentials and app from an accepted Unix socket channel.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerIdentity> {
        PeerCredentials.read(from: channel).flatMap { credentials in
            guard let provider = channel as? any SocketOptionProvider else {
                return channel.eventLoop.makeSucceededFuture(PeerIdentity(credentials: credentials, app: .unconfirmed))
            }
            let pidfd: EventLoopFuture<Int32> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET),
                name: SocketOptionName(Self.soPeerPIDFD)
            )
            return pidfd.map { fd in
                defer { close(fd) }
                return PeerIdentity(credentials: credentials, app: ProcessIdentity.app(pidfd: fd, pid: credentials.pid))
            }.flatMapErrorThrowing { _ in
                // A kernel before 6.5: the pid alone, its start time checked around the reads.
                PeerIdentity(credentials: credentials, app: ProcessIdentity.app(pidfd: nil, pid: credentials.pid))
            }
        }
    }

    /// Linux's SO_PEERPIDFD (since 6.5), which Glibc's module map may not export.
    static let soPeerPIDFD: Int32 = 77
}
