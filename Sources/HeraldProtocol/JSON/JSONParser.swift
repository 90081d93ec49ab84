/// A strict RFC 8259 reader of one JSON text.
///
/// The text must hold exactly one value, optionally surrounded by whitespace. Numbers are
/// checked against the grammar and kept as their literal text; strings are checked for
/// valid UTF-8, unescaped control characters and lone surrogates; arrays and objects may
/// nest at most `maxDepth` levels (`[]` is one level). Duplicate object keys are all kept,
/// in order; `JSONObject`'s subscript answers with the last.
package enum JSONParser {
    /// Reads the JSON text in `bytes`.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.readText()
    }

    package static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    package static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    package static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        }
        return try result.get()
    }
}

/// The cursor that `JSONParser` moves over the bytes of one text.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func readText() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw .unexpectedEnd("before any value", at: index)
        }
        let value = try readValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw .invalid("Unexpected \(describe(bytes[index])) after the end of the value", at: index)
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return
            }
        }
    }

    mutating func readValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else {
            throw .unexpectedEnd("where a value was expected", at: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try readObject())
        case UInt8(ascii: "["): return .array(try readArray())
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        case let byte: throw .invalid("Unexpected \(describe(byte)) where a value was expected", at: index)
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw .depthExceeded(limit: maxDepth, at: index)
        }
        index += 1
    }

    /// Just inside a container: steps over `closing` and leaves the container when it is
    /// empty (true). This and the two below are inlined into both parsers' loops; called,
    /// they cost the tape a tenth of its time.
    @inline(__always)
    mutating func leaveIfEmpty(_ closing: Container) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing.closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After one of a container's elements (or members): steps over the ',' before the next
    /// (false), or over the closing bracket, leaving the container (true).
    @inline(__always)
    mutating func leaveAfterElement(_ container: Container) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw .unexpectedEnd(container == .array ? "inside an array" : "inside an object", at: index)
        }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return false
        case container.closing:
            index += 1
            depth -= 1
            return true
        default:
            throw container == .array
                ? .expected("',' or ']'", "after an array element", at: index)
                : .expected("',' or '}'", "after an object member", at: index)
        }
    }

    /// Reads an object member's name and the ':' after it, leaving `index` at its value; the
    /// name is stepped over by `readName` (read or skipped).
    @inline(__always)
    mutating func readMemberName<Name>(_ readName: (inout JSONReader) throws(JSONParseError) -> Name) throws(JSONParseError) -> Name {
        skipWhitespace()
        guard index < bytes.count else {
            throw .unexpectedEnd("inside an object", at: index)
        }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw .expected("a string key", "in an object", at: index)
        }
        let name = try readName(&self)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw .expected("':'", "after an object key", at: index)
        }
        index += 1
        skipWhitespace()
        return name
    }

    /// The two kinds of container, by their closing bracket.
    enum Container {
        case array, object

        var closing: UInt8 { self == .array ? UInt8(ascii: "]") : UInt8(ascii: "}") }
    }

    mutating func readArray() throws(JSONParseError) -> [JSONValue] {
        try enterContainer()
        var elements: [JSONValue] = []
        if leaveIfEmpty(.array) { return elements }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            if try leaveAfterElement(.array) { return elements }
        }
    }

    mutating func readObject() throws(JSONParseError) -> JSONObject {
        try enterContainer()
        var members: [JSONObject.Member] = []
        // Most of Herald's objects have a handful of members: one allocation instead of three.
        members.reserveCapacity(4)
        if leaveIfEmpty(.object) { return JSONObject(members) }
        while true {
            let key = try readMemberName { reader throws(JSONParseError) in try reader.readString() }
            members.append(JSONObject.Member(key: key, value: try readValue()))
            if try leaveAfterElement(.object) { return JSONObject(members) }
        }
    }

    mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<count {
            guard index + offset < bytes.count, bytes[index + offset] == start[offset] else {
                throw .invalid("Invalid literal; expected '\(literal)'", at: index + offset)
            }
        }
        index += count
    }

    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and keeps its text.
    mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        try skipNumber()
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(literal: literal)
    }

    /// Steps over a number, checking it as ``readNumber()`` does.
    mutating func skipNumber() throws(JSONParseError) {
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw .expected("a digit", "in a number", at: index)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw .invalid("A number may not have a leading zero", at: index - 1)
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw .expected("a digit", "after a decimal point", at: index)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw .expected("a digit", "in an exponent", at: index)
            }
            skipDigits()
        }
    }

    @inline(__always)
    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// How a byte is named in an error: `'x'` for printable ASCII, `byte 0x1F` otherwise.
    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
