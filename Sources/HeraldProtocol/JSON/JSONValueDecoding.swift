import Foundation

/// The `Decoder` behind `JSONValueDecoder`: one per value being decoded, and its own
/// single-value container.
final class JSONValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let path: JSONCodingPath
    let prefix: String

    init(value: JSONValue, path: JSONCodingPath, prefix: String) {
        self.value = value
        self.path = path
        self.prefix = prefix
    }

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [.jsonPointerPrefix: prefix] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch(Key.self, expected: "an object", found: value, at: path)
        }
        return KeyedDecodingContainer(JSONKeyedDecoding<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([JSONValue].self, expected: "an array", found: value, at: path)
        }
        return JSONUnkeyedDecoding(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    // MARK: Decoding one value

    /// Decodes `value`, found at `path`, as a `T`.
    func unbox<T: Decodable>(_ type: T.Type, from value: JSONValue, path: JSONCodingPath) throws -> T {
        if T.self == JSONValue.self {
            return value as! T
        }
        if T.self == String.self {
            return try unboxString(value, path: path) as! T
        }
        if T.self == Date.self {
            return try unboxDate(value, path: path) as! T
        }
        return try T(from: JSONValueDecoding(value: value, path: path, prefix: prefix))
    }

    func unboxString(_ value: JSONValue, path: @autoclosure () -> JSONCodingPath) throws -> String {
        guard case .string(let string) = value else {
            throw mismatch(String.self, expected: "a string", found: value, at: path())
        }
        return string
    }

    func unboxBool(_ value: JSONValue, path: @autoclosure () -> JSONCodingPath) throws -> Bool {
        guard case .bool(let bool) = value else {
            throw mismatch(Bool.self, expected: "a boolean", found: value, at: path())
        }
        return bool
    }

    func unboxInteger<T: FixedWidthInteger>(
        _ type: T.Type,
        from value: JSONValue,
        path: @autoclosure () -> JSONCodingPath
    ) throws -> T {
        guard case .number(let number) = value else {
            throw mismatch(T.self, expected: "an integer", found: value, at: path())
        }
        if let integer = T(number.literal) {
            return integer
        }
        switch JSONIntegerLiteral(number.literal) {
        case .integral(let digits):
            if let integer = T(digits) {
                return integer
            }
        case .tooLarge:
            break
        case .fractional:
            let path = path()
            throw DecodingError.typeMismatch(
                T.self,
                .init(
                    codingPath: path.codingPath,
                    debugDescription: "\(subject(path)) must be an integer, not \(number.literal)."
                )
            )
        }
        let path = path()
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: path.codingPath,
                debugDescription: "\(subject(path)) must be an integer from \(T.min) to \(T.max); got \(number.literal)."
            )
        )
    }

    func unboxFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type,
        from value: JSONValue,
        path: @autoclosure () -> JSONCodingPath
    ) throws -> T {
        guard case .number(let number) = value else {
            throw mismatch(T.self, expected: "a number", found: value, at: path())
        }
        guard let result = T(number.literal), result.isFinite else {
            let path = path()
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path.codingPath,
                    debugDescription: "\(subject(path)) is out of range for a \(T.self); got \(number.literal)."
                )
            )
        }
        return result
    }

    func unboxDate(_ value: JSONValue, path: JSONCodingPath) throws -> Date {
        if case .string(let string) = value, let date = RFC3339.parse(string) {
            return date
        }
        let got = if case .string(let string) = value { "got \"\(string)\"" } else { "not \(value.kindDescription)" }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: path.codingPath,
                debugDescription:
                    "\(subject(path)) must be an RFC 3339 date-time such as 2026-11-22T14:02:00Z; \(got)."
            )
        )
    }

    // MARK: Errors

    /// How a sentence names the value at `path`: its pointer in backquotes, or "params".
    func subject(_ path: JSONCodingPath) -> String {
        JSONPointer.subject(prefix + JSONPointer(codingPath: path.codingPath).description)
    }

    /// "`/app` must be a string, not a number.", as `typeMismatch`, or `valueNotFound` for null.
    func mismatch(_ type: Any.Type, expected: String, found: JSONValue, at path: JSONCodingPath) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: path.codingPath,
            debugDescription: "\(subject(path)) must be \(expected), not \(found.kindDescription)."
        )
        return found.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, path: path) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, path: path) }
    func decode(_ type: Double.Type) throws -> Double { try unboxFloatingPoint(type, from: value, path: path) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloatingPoint(type, from: value, path: path) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(type, from: value, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(type, from: value, path: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type, from: value, path: path) }
}
