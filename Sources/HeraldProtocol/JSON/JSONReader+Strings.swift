/// Strings: escapes, surrogate pairs, control characters and UTF-8 validation.
///
/// A string without escapes is validated in one pass (plain ASCII eight bytes at a time)
/// and copied once into its `String`; one with escapes copies the runs between escapes as slices into a scratch buffer.
extension JSONReader {
    /// Reads a string whose opening quote is at `index`.
    mutating func readString() throws(JSONParseError) -> String {
        let start = index + 1
        if try skipPlainRun() {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        return try readEscapedRest(from: start)
    }

    /// Steps over a string whose opening quote is at `index`, checking it as
    /// ``readString()`` does; true when it holds an escape.
    mutating func skipString() throws(JSONParseError) -> Bool {
        let start = index + 1
        if try skipPlainRun() { return false }
        _ = try readEscapedRest(from: start)
        return true
    }

    /// Steps from a string's opening quote at `index` over its characters up to its closing
    /// quote (true, `index` past it) or its first escape (false, `index` at the backslash).
    private mutating func skipPlainRun() throws(JSONParseError) -> Bool {
        index += 1
        while true {
            index = PlainStringBytes.skip(bytes, from: index, to: bytes.count)
            guard index < bytes.count else {
                throw .unexpectedEnd("inside a string", at: index)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") {
                return false
            }
            try advanceOverStringByte(byte)
        }
    }

    /// Reads the rest of a string that begins at `start` (after its quote) from its first
    /// escape at `index`.
    private mutating func readEscapedRest(from start: Int) throws(JSONParseError) -> String {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(index - start + 16)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < bytes.count else {
                throw .unexpectedEnd("inside a string", at: index)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape(into: &scratch)
                continue
            }
            let runStart = index
            repeat {
                try advanceOverStringByte(bytes[index])
            } while index < bytes.count && bytes[index] != UInt8(ascii: "\"") && bytes[index] != UInt8(ascii: "\\")
            scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
        }
    }

    /// Steps over one unescaped character of a string, which must not be a control character.
    @inline(__always)
    private mutating func advanceOverStringByte(_ byte: UInt8) throws(JSONParseError) {
        if byte < 0x20 {
            throw .invalid("A control character (0x\(String(byte, radix: 16, uppercase: true))) must be escaped in a string", at: index)
        }
        if byte < 0x80 {
            index += 1
        } else {
            try advanceOverUTF8Sequence()
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and
    /// code points past U+10FFFF (RFC 3629's table).
    private mutating func advanceOverUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let continuationCount: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0: continuationCount = 2; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
        case 0xED: continuationCount = 2; secondRange = 0x80...0x9F
        case 0xF0: continuationCount = 3; secondRange = 0x90...0xBF
        case 0xF1...0xF3: continuationCount = 3
        case 0xF4: continuationCount = 3; secondRange = 0x80...0x8F
        default: throw .invalid("Invalid UTF-8", at: index)
        }
        guard index + continuationCount < bytes.count else {
            throw .invalid("Invalid UTF-8 (a truncated sequence)", at: index)
        }
        guard secondRange.contains(bytes[index + 1]) else {
            throw .invalid("Invalid UTF-8", at: index)
        }
        var offset = 2
        while offset <= continuationCount {
            guard bytes[index + offset] & 0xC0 == 0x80 else {
                throw .invalid("Invalid UTF-8", at: index)
            }
            offset += 1
        }
        index += continuationCount + 1
    }

    /// Reads the escape whose backslash is at `index` and appends what it stands for.
    private mutating func readEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            throw .unexpectedEnd("inside an escape", at: index)
        }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexQuad()
            var scalarValue = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw .invalid("A lone low surrogate \\u\(hex(unit)) in a string", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw .invalid("A lone high surrogate \\u\(hex(unit)) in a string", at: escapeStart)
                }
                index += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw .invalid("A lone high surrogate \\u\(hex(unit)) in a string", at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            appendUTF8(scalarValue, to: &scratch)
        default:
            throw .invalid("Invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string", at: escapeStart)
        }
    }

    private mutating func readHexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw .unexpectedEnd("inside a \\u escape", at: index)
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .expected("a hexadecimal digit", "in a \\u escape", at: index)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to scratch: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
