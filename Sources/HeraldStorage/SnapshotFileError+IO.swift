#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldCore

extension SnapshotFileError {
    /// `what` failed with the current `errno`, which it names.
    static func io(_ what: String) -> SnapshotFileError {
        let code = errno
        return SnapshotFileError(.io, "\(what): \(String(cString: strerror(code))) (errno \(code)).")
    }
}
