/// Compact JSON serialisation: no spaces, members in their stored order.
///
/// Strings escape only what RFC 8259 requires: `"`, `\` and the control characters
/// (as `\n` `\r` `\t` `\b` `\f`, the rest as `\u00XX`). `/` is not escaped and non-ASCII
/// text is written as raw UTF-8. Numbers are written as their literal text.
extension JSONValue {
    /// Appends the compact text of this value to `buffer`.
    package func write(to buffer: inout [UInt8]) {
        switch self {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let value):
            buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let number):
            JSONValue.writeRaw(number.literal, to: &buffer)
        case .string(let string):
            JSONValue.writeString(string, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first {
                    buffer.append(UInt8(ascii: ","))
                }
                first = false
                element.write(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            var first = true
            for member in object.members {
                if !first {
                    buffer.append(UInt8(ascii: ","))
                }
                first = false
                JSONValue.writeString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                member.value.write(to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of this value.
    package var compactText: String {
        // A number's text is its literal: most request ids, every request.
        if case .number(let number) = self {
            return number.literal
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        write(to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func writeRaw(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Writes `string` quoted, copying the runs between escapes as slices.
    static func writeString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Most strings hold nothing to escape: the bytes before the first that may need it
            // are passed over eight at a time, and a string with none is copied whole as the
            // last run.
            let firstToLookAt = PlainStringBytes.skip(UnsafeRawBufferPointer(utf8), from: 0, to: utf8.count, passingNonASCII: true)
            var runStart = 0
            for index in firstToLookAt..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    continue
                }
                if runStart < index {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                runStart = index + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                default:
                    let hexDigits: StaticString = "0123456789abcdef"
                    buffer.append(contentsOf: "u00".utf8)
                    buffer.append(hexDigits.utf8Start[Int(byte >> 4)])
                    buffer.append(hexDigits.utf8Start[Int(byte & 0x0F)])
                }
            }
            if runStart < utf8.count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
