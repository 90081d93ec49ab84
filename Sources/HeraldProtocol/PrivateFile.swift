import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file of the person's own — herald-notify's `presented-until`, herald-sync's
/// status — replaced whole or not at all: written beside itself (0600), then renamed over,
/// in a folder made 0700 when missing. No fsync: what it holds is written again soon.
package enum PrivateFile {
    package struct WriteError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a file at the root.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes `path` and the folders above it that are missing, each with `mode`, as
    /// `mkdir -p` does; an existing folder is left as it is.
    package static func makeFolder(_ path: String, mode: mode_t) throws(WriteError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        let parent = folder(of: path)
        if parent != path, parent != "." { try makeFolder(parent, mode: mode) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else { throw WriteError(description: String(cString: strerror(errno))) }
    }

    package static func replace(_ path: String, with bytes: [UInt8]) throws(WriteError) {
        try? FileManager.default.createDirectory(
            atPath: folder(of: path), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        close(descriptor)
        guard written == bytes.count else {
            unlink(temporary)
            throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(written < 0 ? writeError : ENOSPC)))")
        }
        guard rename(temporary, path) == 0 else {
            let renameError = errno
            unlink(temporary)
            throw WriteError(description: "cannot replace \(path): \(String(cString: strerror(renameError)))")
        }
    }
}
