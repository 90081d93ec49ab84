/// Skips, eight bytes at a time, the bytes of a JSON string that need no attention:
/// printable ASCII other than `"` and `\`, and, for the writer, the bytes of multi-byte
/// UTF-8 sequences too.
///
/// The parser and the framer otherwise look at every byte of every string, and strings are
/// most of a request; they stop at a multi-byte sequence too, to check it. The writer
/// otherwise looks at every byte for one to escape; a Swift string's UTF-8 is valid already.
/// Whatever this stops at — a quote, a backslash, a control character, a byte of a
/// multi-byte sequence for the reader, or fewer than eight bytes left — the caller goes on
/// byte by byte, so stopping early is always safe.
enum PlainStringBytes {
    /// The first index from `start` (and before `end`) of a byte that needs attention, or
    /// the index where fewer than eight bytes are left. A byte above 0x7F needs attention
    /// unless `passingNonASCII`.
    @inline(__always)
    static func skip(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, passingNonASCII: Bool = false) -> Int {
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let mask = attentionMask(word, passingNonASCII: passingNonASCII)
            if mask != 0 {
                return index + mask.trailingZeroBitCount / 8
            }
            index += 8
        }
        return index
    }

    /// The high bit of each byte of `word` that is `"`, `\`, below 0x20 or (unless
    /// `passingNonASCII`) above 0x7F — exactly, up to the first such byte: bits above it
    /// may be set spuriously, so only the lowest set bit (the first byte, the word being
    /// little-endian) is to be trusted.
    ///
    /// The classic bit tricks: `(x - 0x01…01) & ~x & 0x80…80` marks a zero byte of `x`, and
    /// with `0x20…20` in place of `0x01…01`, a byte below 0x20 (bytes above 0x7F, whose
    /// high bit `~x` clears, are marked apart, or not at all).
    @inline(__always)
    static func attentionMask(_ word: UInt64, passingNonASCII: Bool = false) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | (passingNonASCII ? 0 : word)) & highBits
    }
}
