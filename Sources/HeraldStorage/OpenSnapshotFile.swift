import FoundationEssentials
import HeraldCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A snapshot's bytes, read from its start as far as a reader needs: a start reads the
/// header and the sections before the store, and the thread that restores the store reads
/// the rest later from the same open file, which a rename meanwhile does not change.
package final class OpenSnapshotFile: Sendable {
    private let descriptor: Int32?
    private let bytes: [UInt8]
    let path: String
    /// The file's size when it was opened.
    package let size: Int

    /// The file at `path`, open until this source is released.
    package init(path: String) throws(SnapshotFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SnapshotFileError.io("Cannot open \(path)") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = SnapshotFileError.io("Cannot stat \(path)")
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.bytes = []
        self.path = path
        self.size = Int(status.st_size)
    }

    /// Bytes already in memory (a fuzzer's input, a test's file).
    package init(bytes: [UInt8]) {
        self.descriptor = nil
        self.bytes = bytes
        self.path = "a snapshot in memory"
        self.size = bytes.count
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// The first `count` bytes (fewer if the file is shorter): the whole file for `size`.
    package func prefix(_ count: Int) throws(SnapshotFileError) -> [UInt8] {
        try bytes(at: 0, count: count)
    }

    /// The `count` bytes from `offset` (fewer if the file is shorter).
    package func bytes(at offset: Int, count: Int) throws(SnapshotFileError) -> [UInt8] {
        let offset = max(0, min(offset, size))
        let count = max(0, min(count, size - offset))
        guard let descriptor else { return Array(bytes[offset..<offset + count]) }
        var failure: SnapshotFileError?
        let read = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0, errno == EINTR { continue }
                if got < 0 { failure = SnapshotFileError.io("Cannot read \(path)") }
                if got <= 0 { break }  // A file that shrank meanwhile reads as truncated.
                initialized += got
            }
        }
        if let failure { throw failure }
        return read
    }
}
