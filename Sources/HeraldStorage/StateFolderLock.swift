import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive hold of one heraldd on its state folder: an `flock` on
/// `state.lock`, which also records the holder's pid (`flock` names no holder).
///
/// Two daemons on one folder would overwrite each other's snapshots; the second one to
/// start is refused instead. The lock is released by the kernel when the holder exits,
/// however it exits, so a kill -9 leaves no stale lock behind: the pid left in the file
/// is only read while the lock is held.
///
/// A daemon that stops cleanly clears the pid (``markCleanStop()``), so a pid still in the
/// file when the lock is taken is a predecessor that did not: killed, crashed, or the
/// machine went down.
///
/// On a full disk or a read-only folder the lock is still taken (a read-only file can be
/// locked) and heraldd starts: ``pidRecordFailure`` says why the pid is not recorded, and
/// the daemon treats it as a write of the state that failed.
package final class StateFolderLock: Sendable {
    package let path: String
    private let fd: Int32
    /// The pid of the heraldd before this one, when it did not stop cleanly.
    package let uncleanPredecessor: Int32?
    /// Why the pid could not be recorded (full disk, read-only folder), or nil.
    package let pidRecordFailure: String?

    /// Takes the lock on `folder` (which must exist), or throws naming the holder.
    package init(folder: String, pid: Int32 = getpid()) throws(StateFolderLockError) {
        let path = folder + "/state.lock"
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        var readOnly: String?
        if fd < 0, errno == EROFS || errno == EACCES {
            // A read-only folder: lock the file that is there, read-only.
            readOnly = Self.describe("cannot record the pid in \(path)")
            fd = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw StateFolderLockError(Self.describe("cannot open \(path)")) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.recordedPid(fd)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw StateFolderLockError("cannot lock \(path): \(String(cString: strerror(code))) (errno \(code))")
            }
            throw StateFolderLockError(
                "another heraldd (\(holder.map { "pid \($0)" } ?? "its pid not yet recorded")) holds the state folder \(folder) "
                    + "(\(path)); stop it, or give this one another --state-dir",
                holder: holder
            )
        }
        self.path = path
        self.fd = fd
        self.uncleanPredecessor = Self.recordedPid(fd)
        self.pidRecordFailure = readOnly ?? Self.record("\(pid)\n", path: path)
    }

    /// Writes `content` as the lock file's, through a descriptor of its own (the lock's
    /// may be read-only); why it could not, or nil. The lock stays with the lock's descriptor.
    private static func record(_ content: String, path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return describe("cannot record the pid in \(path)") }
        defer { close(fd) }
        let record = Array(content.utf8)
        guard ftruncate(fd, 0) == 0, pwrite(fd, record, record.count, 0) == record.count else {
            return describe("cannot record the pid in \(path)")
        }
        return nil
    }

    /// Records this daemon's pid again, once the folder is writable: so that an unclean
    /// stop from now on is reported at the next start. Why it still cannot, or nil.
    @discardableResult
    package func recordPidAgain(_ pid: Int32 = getpid()) -> String? {
        Self.record("\(pid)\n", path: path)
    }

    deinit { close(fd) }

    /// Clears the recorded pid: this daemon stopped cleanly, its final snapshot taken.
    package func markCleanStop() {
        _ = Self.record("", path: path)
    }

    /// The pid written in the lock file, if it reads as one.
    private static func recordedPid(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace()
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func describe(_ what: String) -> String {
        let code = errno
        return "\(what): \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Why the state folder could not be locked: another heraldd holds it, or the lock file
/// cannot be made.
package struct StateFolderLockError: Error, Sendable, CustomStringConvertible {
    package var description: String
    /// The pid of the heraldd that holds the folder, when that is the reason and it is known.
    package var holder: Int32?

    init(_ description: String, holder: Int32? = nil) {
        self.description = description
        self.holder = holder
    }
}
