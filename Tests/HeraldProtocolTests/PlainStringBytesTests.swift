import HeraldTesting
import Testing

@testable import HeraldProtocol

/// `PlainStringBytes.skip` against the byte-by-byte rule it shortcuts, as the reader uses
/// it (stopping at multi-byte UTF-8) and as the writer does (passing it).
@Suite struct PlainStringBytesTests {
    /// Whether the parser and the framer (or, passing non-ASCII, the writer) must look at
    /// `byte` inside a string.
    static func needsAttention(_ byte: UInt8, passingNonASCII: Bool) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || (!passingNonASCII && byte >= 0x80)
    }

    static func reference(_ bytes: [UInt8], from start: Int, passingNonASCII: Bool) -> Int {
        var index = start
        while index < bytes.count, !needsAttention(bytes[index], passingNonASCII: passingNonASCII) { index += 1 }
        return index
    }

    static func skip(_ bytes: [UInt8], from start: Int, passingNonASCII: Bool) -> Int {
        bytes.withUnsafeBytes { PlainStringBytes.skip($0, from: start, to: bytes.count, passingNonASCII: passingNonASCII) }
    }

    /// Every byte value at every position of a word, after every kind of byte before it.
    @Test(arguments: [false, true])
    func stopsAtTheFirstByteThatNeedsAttention(passingNonASCII: Bool) {
        for position in 0..<8 {
            for value in 0...255 {
                for before: UInt8 in [UInt8(ascii: "a"), 0x00, 0x1F, 0x20, 0x7F, 0x80, 0xFF] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
                    bytes[position] = UInt8(value)
                    if position > 0 { bytes[position - 1] = before }
                    let skipped = Self.skip(bytes, from: 0, passingNonASCII: passingNonASCII)
                    let expected = Self.reference(bytes, from: 0, passingNonASCII: passingNonASCII)
                    // It may stop where fewer than eight bytes are left, never after a byte that needs attention.
                    #expect(skipped == expected || (skipped < expected && bytes.count - skipped < 8), "\(bytes)")
                    if expected < 8 { #expect(skipped == expected, "\(bytes)") }
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func agreesWithTheByteRuleOnRandomText(passingNonASCII: Bool) {
        var generator = SeededRandom(for: "PlainStringBytesTests.agreesWithTheByteRuleOnRandomText")
        let alphabet: [UInt8] = Array("abcXYZ 09{}[]:,".utf8) + [0x22, 0x5C, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? UInt8(ascii: "a") : alphabet.randomElement(using: &generator)!
            }
            let start = count == 0 ? 0 : Int.random(in: 0..<count, using: &generator)
            let skipped = Self.skip(bytes, from: start, passingNonASCII: passingNonASCII)
            let expected = Self.reference(bytes, from: start, passingNonASCII: passingNonASCII)
            #expect(skipped <= expected, "\(bytes) from \(start), seed \(generator.seed)")
            #expect(skipped == expected || bytes.count - skipped < 8, "\(bytes) from \(start), seed \(generator.seed)")
        }
    }
}
