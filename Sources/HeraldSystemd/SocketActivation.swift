import CSystemd
import Glibc

/// A listening socket that systemd passed to this process.
package struct ListenedSocket: Sendable, Hashable {
    /// The file descriptor, 3 or more; close-on-exec is set.
    package let fd: Int32
    /// The socket unit's `FileDescriptorName=`, or `unknown` when it set none.
    package let name: String

    package init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }
}

/// The sockets systemd hands over when it starts heraldd on demand (`herald.socket`).
package enum SocketActivation {
    /// The `FileDescriptorName=` heraldd's socket unit gives its socket.
    package static let heraldSocketName = "herald"

    /// The Unix stream listening sockets passed by systemd, in the order passed.
    ///
    /// Reads and unsets `LISTEN_FDS`, `LISTEN_PID` and `LISTEN_FDNAMES`
    /// (`sd_listen_fds_with_names` with unset), so child processes do not see them and a
    /// second call returns nothing. Passed descriptors of any other kind are left open and
    /// left out. Empty when the process was not socket-activated.
    package static func listenedSockets() -> [ListenedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        defer { freeNames(names, count: count) }
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            let fd = SD_LISTEN_FDS_START + index
            guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return ListenedSocket(fd: fd, name: name)
        }
    }

    /// The socket to serve JSON-RPC on: the one named ``heraldSocketName``, else the first.
    package static func chooseHeraldSocket(_ sockets: [ListenedSocket]) -> ListenedSocket? {
        sockets.first(where: { $0.name == heraldSocketName }) ?? sockets.first
    }

    /// Frees the NULL-terminated array `sd_listen_fds_with_names` allocated, and each name in it.
    private static func freeNames(_ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32) {
        guard let names else { return }
        var index = 0
        while let name = names[index] {
            free(name)
            index += 1
        }
        free(names)
    }
}
