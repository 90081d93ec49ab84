import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a heraldd that stopped without its final snapshot left for the next one to say:
/// when, why, and what it had acknowledged that no snapshot holds.
///
/// Kept in `state.unwritten`, a file of ``UnwrittenStateFile/size`` bytes allocated while
/// the folder is writable, so that the record still fits when the disk is full: `key=value`
/// lines after a first line `herald-unwritten 1`, ended by a NUL or the file's end. A file
/// that begins with a NUL holds no record.
package struct UnwrittenStateRecord: Sendable, Hashable {
    /// When the final snapshot failed.
    package var failedAt: Date
    /// When the state on disk last matched the daemon's: its last snapshot, or its start.
    package var writtenAt: Date
    /// The generation on disk, which the next start restores.
    package var generation: UInt64
    /// Calls that changed the state after `writtenAt`, and are lost.
    package var unwrittenChanges: UInt64
    /// The pid of the heraldd that stopped.
    package var pid: Int32
    /// Why the snapshot failed: the error, with the file and errno.
    package var cause: String

    package init(failedAt: Date, writtenAt: Date, generation: UInt64, unwrittenChanges: UInt64, pid: Int32, cause: String) {
        self.failedAt = failedAt
        self.writtenAt = writtenAt
        self.generation = generation
        self.unwrittenChanges = unwrittenChanges
        self.pid = pid
        self.cause = cause
    }

    static let magic = "herald-unwritten 1"

    /// The record as the file holds it, at most `limit` bytes: a long cause is cut.
    package func encoded(limit: Int = UnwrittenStateFile.size) -> [UInt8] {
        let head = [
            Self.magic,
            "failedAt=\(RFC3339.format(failedAt))",
            "writtenAt=\(RFC3339.format(writtenAt))",
            "generation=\(generation)",
            "unwrittenChanges=\(unwrittenChanges)",
            "pid=\(pid)",
        ].joined(separator: "\n")
        let oneLine = cause.replacing("\n", with: " ").replacing("\0", with: " ")
        var bytes = Array("\(head)\ncause=".utf8)
        let room = max(0, limit - bytes.count - 2)
        bytes += Array(String(decoding: Array(oneLine.utf8.prefix(room)), as: UTF8.self).utf8.prefix(room))
        bytes += Array("\n\0".utf8)
        return bytes
    }

    /// The record in `bytes`, or nil for none (a NUL first, an empty file) or one this
    /// build does not read.
    package static func decode(_ bytes: some Collection<UInt8>) -> UnwrittenStateRecord? {
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.first == magic else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let failedAt = fields["failedAt"].flatMap(RFC3339.parse),
            let writtenAt = fields["writtenAt"].flatMap(RFC3339.parse),
            let generation = fields["generation"].flatMap({ UInt64($0) }),
            let unwritten = fields["unwrittenChanges"].flatMap({ UInt64($0) }),
            let pid = fields["pid"].flatMap({ Int32($0) }),
            let cause = fields["cause"]
        else { return nil }
        return UnwrittenStateRecord(
            failedAt: failedAt, writtenAt: writtenAt, generation: generation, unwrittenChanges: unwritten, pid: pid, cause: cause)
    }
}

/// `state.unwritten` in the state folder: ``UnwrittenStateRecord`` on disk.
package struct UnwrittenStateFile: Sendable {
    /// Bytes allocated ahead: a record with a cause of 3,900 bytes.
    package static let size = 4096
    package let path: String

    package init(folder: String) {
        path = folder + "/state.unwritten"
    }

    /// Makes the file and allocates its blocks, so that a record written on a full disk
    /// needs none. Fails on a full or read-only folder; the file may then be missing.
    package func allocate() throws(SnapshotFileError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SnapshotStore.ioError("Cannot open \(path)") }
        defer { close(fd) }
        let code = posix_fallocate(fd, 0, off_t(Self.size))
        guard code == 0 else {
            errno = code
            throw SnapshotStore.ioError("Cannot allocate \(path)")
        }
    }

    /// The record the file holds, if any.
    package func read() -> UnwrittenStateRecord? {
        guard let bytes = try? SnapshotStore.readPrefix(path, count: Self.size) else { return nil }
        return UnwrittenStateRecord.decode(bytes)
    }

    /// Writes `record` over the file's first bytes, inside the blocks ``allocate()`` took,
    /// and syncs it.
    package func write(_ record: UnwrittenStateRecord) throws(SnapshotFileError) {
        try overwrite(record.encoded())
    }

    /// Clears the record (a NUL at its start), keeping the blocks for the next one.
    package func clear() throws(SnapshotFileError) {
        guard access(path, F_OK) == 0 else { return }
        try overwrite([0])
    }

    private func overwrite(_ bytes: [UInt8]) throws(SnapshotFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SnapshotStore.ioError("Cannot open \(path)") }
        defer { close(fd) }
        guard pwrite(fd, bytes, bytes.count, 0) == bytes.count else { throw SnapshotStore.ioError("Cannot write \(path)") }
        guard fdatasync(fd) == 0 else { throw SnapshotStore.ioError("Cannot fsync \(path)") }
    }
}
