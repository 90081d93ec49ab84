import Glibc

/// Finding and matching byte patterns in a buffer, with `memchr` and `memcmp`.
enum ByteSearch {
    @inline(__always)
    static func matches(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
        return pattern.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress! + offset, pattern.count) == 0 }
    }

    /// The offset of the first `pattern` at or after `offset`.
    static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        var position = offset
        let first = Int32(pattern[0])
        while position + pattern.count <= bytes.count {
            guard let hit = memchr(bytes.baseAddress! + position, first, bytes.count - position) else { return nil }
            position = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if matches(pattern, in: bytes, at: position) { return position }
            position += 1
        }
        return nil
    }
}
