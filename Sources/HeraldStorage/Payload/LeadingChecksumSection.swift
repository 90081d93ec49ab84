import HeraldCore
import HeraldProtocol

/// The length and CRC-32C of the sections that follow it up to the store's, since format
/// 6: all a start reads and checks before it answers (``SnapshotFile/decodeLeading(_:configuration:)``).
/// The store's sections, the interactions and notifications, come after those it covers,
/// and they and the payload's own checksum are read and checked by the thread that
/// restores them (``StoreSections``), however large they are.
///
/// Its 12 bytes: the length (8, little-endian), then the CRC-32C (4). It is written first,
/// and ``SnapshotPayload/encode(_:parallel:)`` fills it in once the sections it covers are.
enum LeadingChecksumSection: SnapshotSection {
    static let name = "leading-checksum"
    static let since: UInt32 = 6
    static let byteCount = 12

    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws {
        bytes.appendFixed(0, size: byteCount)
    }

    /// Fills in the section whose bytes are `range` of `payload` with the `length` bytes
    /// right after them.
    static func seal(_ payload: inout [UInt8], at range: Range<Int>, covering length: Int) {
        precondition(range.count == byteCount && range.upperBound + length <= payload.count)
        let checksum = payload.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[range.upperBound..<(range.upperBound + length)])) }
        var sealed: [UInt8] = []
        sealed.appendFixed(UInt64(length), size: 8)
        sealed.appendFixed(UInt64(checksum), size: 4)
        payload.replaceSubrange(range, with: sealed)
    }

    /// Checks the section at `range` of `file` against the bytes it covers, which it
    /// returns; the state holds nothing of it.
    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        _ = try covered(in: file, range: range)
    }

    /// Where the bytes the section at `range` of `file` covers lie, their checksum checked.
    static func covered(in file: [UInt8], range: Range<Int>) throws(SnapshotFileError) -> Range<Int> {
        try file.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) -> Range<Int> in
                var input = PayloadReader(raw, range: range)
                guard range.count == byteCount else {
                    throw input.damaged(at: range.lowerBound, "the \(name) section is \(range.count) bytes, not \(byteCount).")
                }
                let length = try input.fixed(8)
                let checksum = UInt32(try input.fixed(4))
                guard length <= UInt64(raw.count - range.upperBound) else {
                    throw SnapshotFileError(.checksumMismatch, "The \(name) section covers \(length) bytes; \(raw.count - range.upperBound) follow it.")
                }
                let covered = range.upperBound..<(range.upperBound + Int(length))
                guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[covered])) == checksum else {
                    throw SnapshotFileError(.checksumMismatch, "The checksum of the sections before the store does not hold.")
                }
                return covered
            }
        }.get()
    }

    /// Nothing of the state: only the bytes after it.
    static func inspection(of state: HeraldState) -> JSONValue { .null }
}
