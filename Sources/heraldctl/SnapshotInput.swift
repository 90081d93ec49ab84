import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of the file `inspect-snapshot` is given, or a failure that names the path and
/// the cause: absent, not readable by this user, or a folder (exit 66, `EX_NOINPUT`); a
/// read that fails once the file is open (exit 74, `EX_IOERR`).
enum SnapshotInput {
    static func read(_ path: String) throws(CtlFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let cause = errno
            // A folder opens read-only; the check below names it. Anything else ends here.
            throw CtlFailure(.noInput, ["heraldctl: cannot open \(path): \(String(cString: strerror(cause))) (errno \(cause))."])
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw CtlFailure(.noInput, folderLines(path))
        }
        var bytes: [UInt8] = []
        if status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                let cause = errno
                if cause == EINTR { continue }
                throw CtlFailure(
                    .ioError, ["heraldctl: cannot read \(path) after \(bytes.count) bytes: \(String(cString: strerror(cause))) (errno \(cause))."])
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// What to give instead of a folder: its snapshot or a change log segment, by name when
    /// the folder holds them (a state folder does).
    private static func folderLines(_ path: String) -> [String] {
        let folder = URL(fileURLWithPath: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var lines = ["heraldctl: \(path) is a folder: give a snapshot file or a change log segment (changes.N.log) in it."]
        if names.contains("state.snapshot") {
            lines.append("  its snapshot: heraldctl inspect-snapshot \(folder.appendingPathComponent("state.snapshot").path)")
        }
        for segment in names.filter({ $0.hasPrefix("changes.") && $0.hasSuffix(".log") }).sorted() {
            lines.append("  a change log segment: heraldctl inspect-snapshot \(folder.appendingPathComponent(segment).path)")
        }
        return lines
    }
}
