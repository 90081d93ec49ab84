import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state folder's snapshot files, and the one way to replace them: atomically.
///
/// - `state.snapshot`: the newest snapshot.
/// - `state.snapshot.previous`: the generation before it.
/// - `state.snapshot.tmp`: a snapshot being written; never read, removed at start.
/// - `state.generation`: the highest generation ever begun, so that a generation number
///   is never used twice, even when the snapshot that had it is damaged past reading.
/// - `state.lock`: the lock of the heraldd that holds the folder (``StateFolderLock``).
/// - `state.snapshot[.previous].damaged-<time>` / `.unsupported-<time>`: files set aside
///   by recovery, kept for a person to look at; never deleted by Herald.
///
/// The folder is made 0700 and every file 0600.
package struct SnapshotStore: Sendable {
    package let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    package var currentPath: String { folder + "/state.snapshot" }
    package var previousPath: String { folder + "/state.snapshot.previous" }
    var temporaryPath: String { folder + "/state.snapshot.tmp" }
    var previousTemporaryPath: String { folder + "/state.snapshot.previous.tmp" }
    var generationPath: String { folder + "/state.generation" }

    /// Creates the folder (and its parents) if missing, and makes it 0700.
    package func prepareFolder() throws(SnapshotFileError) {
        do {
            try PrivateFile.makeFolder(folder, mode: 0o700)
        } catch {
            throw SnapshotFileError(.io, "Cannot create the state folder \(folder): \(error.description)")
        }
        // A folder already 0700 is left alone: on a read-only file system chmod fails.
        var status = stat()
        if stat(folder, &status) == 0, status.st_mode & 0o7777 == 0o700 { return }
        guard chmod(folder, 0o700) == 0 else {
            throw Self.ioError("Cannot make the state folder \(folder) 0700")
        }
    }

    /// Writes `file` as the new `state.snapshot`, keeping the old one as `.previous`.
    ///
    /// The generation is recorded in `state.generation` first; then: temporary file, fsync, hard link of the current one to `.previous`, rename of the
    /// new one over the current one, fsync of the folder. At every instant
    /// `state.snapshot` is a complete snapshot, old or new; a failure at any step
    /// removes the temporary file and leaves the current snapshot as it was.
    package func write(_ file: SnapshotFile) throws(SnapshotFileError) {
        unlink(temporaryPath)
        do throws(SnapshotFileError) {
            try recordGeneration(file.header.generation)
            try writeTemporary(file)
            if access(currentPath, F_OK) == 0 {
                unlink(previousTemporaryPath)
                guard link(currentPath, previousTemporaryPath) == 0 else {
                    throw Self.ioError("Cannot link \(currentPath) to keep it as the previous generation")
                }
                guard rename(previousTemporaryPath, previousPath) == 0 else {
                    throw Self.ioError("Cannot rename \(previousTemporaryPath) to \(previousPath)")
                }
            }
            guard rename(temporaryPath, currentPath) == 0 else {
                throw Self.ioError("Cannot rename \(temporaryPath) to \(currentPath)")
            }
        } catch {
            unlink(temporaryPath)
            unlink(previousTemporaryPath)
            throw error
        }
        try syncFolder()
    }

    private func writeTemporary(_ file: SnapshotFile) throws(SnapshotFileError) {
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.ioError("Cannot create \(temporaryPath)") }
        defer { close(fd) }
        try Self.writeAll(fd, file.header.bytes, path: temporaryPath)
        let path = temporaryPath
        try file.payloadPieces.forEach { (piece) throws(SnapshotFileError) in try Self.writeAll(fd, piece, path: path) }
        guard fsync(fd) == 0 else { throw Self.ioError("Cannot fsync \(temporaryPath)") }
    }

    /// Records `generation` as begun: 8 bytes little-endian and their CRC-32C, synced
    /// before the snapshot that has it is written.
    private func recordGeneration(_ generation: UInt64) throws(SnapshotFileError) {
        var record: [UInt8] = withUnsafeBytes(of: generation.littleEndian) { Array($0) }
        withUnsafeBytes(of: CRC32C.checksum(record).littleEndian) { record.append(contentsOf: $0) }
        let fd = open(generationPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.ioError("Cannot open \(generationPath)") }
        defer { close(fd) }
        guard pwrite(fd, record, record.count, 0) == record.count else { throw Self.ioError("Cannot write \(generationPath)") }
        guard fdatasync(fd) == 0 else { throw Self.ioError("Cannot fsync \(generationPath)") }
    }

    /// The generation `state.generation` records, unless it is missing or damaged.
    func recordedGeneration() -> UInt64? {
        guard let record = try? Self.readPrefix(generationPath, count: 12), record.count == 12 else { return nil }
        let generation = record.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let checksum = record.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) }
        return CRC32C.checksum(Array(record[0..<8])) == checksum ? generation : nil
    }

    /// The generation in the header of the file at `path`, if its magic and its header
    /// checksum hold (its version may be newer, its payload damaged).
    static func headerGeneration(_ path: String) -> UInt64? {
        guard let bytes = try? readPrefix(path, count: SnapshotHeader.size) else { return nil }
        return bytes.withUnsafeBytes { SnapshotHeader.generation(inFrame: $0) }
    }

    private func syncFolder() throws(SnapshotFileError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.ioError("Cannot open the state folder \(folder) to fsync it") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Self.ioError("Cannot fsync the state folder \(folder)") }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SnapshotFileError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in try writeAll(fd, raw, path: path) }
        }.get()
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SnapshotFileError) {
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, 1 << 24)
            let written = Glibc.write(fd, bytes.baseAddress! + offset, chunk)
            if written < 0 {
                if errno == EINTR { continue }
                throw ioError("Cannot write \(path)")
            }
            offset += written
        }
    }

    /// The whole file at `path`, read straight into the array that is then decoded.
    static func readAll(_ path: String) throws(SnapshotFileError) -> [UInt8] {
        try readPrefix(path, count: nil)
    }

    /// The first `count` bytes of the file at `path` (fewer if it is shorter), or all of it.
    static func readPrefix(_ path: String, count: Int?) throws(SnapshotFileError) -> [UInt8] {
        let file = try OpenSnapshotFile(path: path)
        return try file.prefix(count ?? file.size)
    }

    static func ioError(_ what: String) -> SnapshotFileError {
        SnapshotFileError.io(what)
    }
}
