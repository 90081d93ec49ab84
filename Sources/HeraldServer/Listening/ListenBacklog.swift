#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The backlog of a listening Unix socket: read from the kernel, and set.
///
/// NIO's `withBoundSocket` calls `listen()` again with its own default of 128, which
/// would replace the backlog systemd listened with (`Backlog=`, by default 4096); heraldd
/// reads the backlog it is handed before NIO touches the socket, and puts it back after.
package enum ListenBacklog {
    /// The backlog `fd` listens with, from the kernel's socket diagnostics (what `ss -xl`
    /// shows as Send-Q); nil when it cannot be read.
    package static func current(of fd: Int32) -> Int32? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        let inode = UInt32(truncatingIfNeeded: status.st_ino)
        let netlink = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard netlink >= 0 else { return nil }
        defer { close(netlink) }

        // struct nlmsghdr, then struct unix_diag_req (linux/unix_diag.h).
        var request: [UInt8] = []
        append(UInt32(16 + 24), to: &request)  // nlmsg_len
        append(UInt16(sockDiagByFamily), to: &request)
        append(UInt16(netlinkRequestFlag), to: &request)
        append(UInt32(1), to: &request)  // nlmsg_seq
        append(UInt32(0), to: &request)  // nlmsg_pid
        request.append(UInt8(AF_UNIX))  // sdiag_family
        request.append(0)  // sdiag_protocol
        append(UInt16(0), to: &request)  // pad
        append(UInt32(1 << listeningState), to: &request)  // udiag_states
        append(inode, to: &request)  // udiag_ino
        append(UInt32(showReceiveQueueLength), to: &request)  // udiag_show
        append(UInt32.max, to: &request)  // udiag_cookie: none
        append(UInt32.max, to: &request)
        guard send(netlink, request, request.count, 0) == request.count else { return nil }

        var reply = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: netlink, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return nil }
        let count = recv(netlink, &reply, reply.count, 0)
        guard count >= 32, read16(reply, at: 4) == UInt16(sockDiagByFamily) else { return nil }
        let length = min(Int(read32(reply, at: 0)), count)
        // Attributes follow the 16-byte header and the 16-byte struct unix_diag_msg.
        var offset = 32
        while offset + 4 <= length {
            let attributeLength = Int(read16(reply, at: offset))
            guard attributeLength >= 4, offset + attributeLength <= length else { return nil }
            if read16(reply, at: offset + 2) == receiveQueueLengthAttribute, attributeLength >= 12 {
                // struct unix_diag_rqlen { rqueue; wqueue }: for a listener, wqueue is the backlog.
                return Int32(truncatingIfNeeded: read32(reply, at: offset + 8))
            }
            offset += (attributeLength + 3) & ~3
        }
        return nil
    }

    /// Listens on `fd` again with `backlog`: a listening socket takes the new value.
    package static func apply(_ backlog: Int32, to fd: Int32) throws(ListeningError) {
        guard listen(fd, backlog) == 0 else {
            throw ListeningError("Cannot listen with a backlog of \(backlog): \(String(cString: strerror(errno))).")
        }
    }

    private static let netlinkSockDiag: Int32 = 4  // NETLINK_SOCK_DIAG
    private static let sockDiagByFamily = 20  // SOCK_DIAG_BY_FAMILY
    private static let netlinkRequestFlag = 1  // NLM_F_REQUEST
    private static let listeningState = 10  // TCP_LISTEN
    private static let showReceiveQueueLength = 0x10  // UDIAG_SHOW_RQLEN
    private static let receiveQueueLengthAttribute: UInt16 = 4  // UNIX_DIAG_RQLEN

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func read16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func read32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(read16(bytes, at: offset)) | UInt32(read16(bytes, at: offset + 2)) << 16
    }
}
