import Foundation
import HeraldProtocol

/// Reads an event's params (or a result) from heraldd's JSON, leniently as a client
/// should: members a later heraldd adds are ignored, an optional member may be absent or
/// null. A member that is not what a presenter expects throws `invalidParams` with its
/// JSON Pointer.
struct EventReader {
    let object: JSONObject
    /// The pointer of this object, such as `/params/notification`.
    let pointer: String

    init(_ value: JSONValue, at pointer: String) throws(RPCError) {
        guard case .object(let object) = value else {
            throw .invalidParams("An object was expected, not \(value.kindDescription).", at: pointer)
        }
        self.object = object
        self.pointer = pointer
    }

    func pointer(of key: String) -> String {
        pointer + "/" + JSONPointer.escape(key)
    }

    func optionalValue(_ key: String) -> JSONValue? {
        switch object[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    private func missing(_ key: String) -> RPCError {
        .invalidParams("The member \(key) is missing.", at: pointer(of: key))
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> RPCError {
        .invalidParams("\(expected) was expected, not \(value.kindDescription).", at: pointer(of: key))
    }

    func optionalString(_ key: String) throws(RPCError) -> String? {
        guard let value = optionalValue(key) else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "A string", value) }
        return string
    }

    func string(_ key: String) throws(RPCError) -> String {
        guard let string = try optionalString(key) else { throw missing(key) }
        return string
    }

    func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = optionalValue(key) else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, "A boolean", value) }
        return bool
    }

    func bool(_ key: String) throws(RPCError) -> Bool {
        guard let bool = try optionalBool(key) else { throw missing(key) }
        return bool
    }

    func optionalInteger<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(RPCError) -> T? {
        guard let value = optionalValue(key) else { return nil }
        guard case .number(let number) = value, let integer = T(number.literal) else { throw mismatch(key, "An integer", value) }
        return integer
    }

    func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(RPCError) -> T {
        guard let integer = try optionalInteger(key, as: T.self) else { throw missing(key) }
        return integer
    }

    func optionalDouble(_ key: String) throws(RPCError) -> Double? {
        guard let value = optionalValue(key) else { return nil }
        guard case .number(let number) = value, let double = number.doubleValue else { throw mismatch(key, "A number", value) }
        return double
    }

    /// An RFC 3339 date-time, as heraldd writes dates.
    func optionalDate(_ key: String) throws(RPCError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = RFC3339.parse(text) else { throw .invalidParams("\(text) is not an RFC 3339 date-time.", at: pointer(of: key)) }
        return date
    }

    func date(_ key: String) throws(RPCError) -> Date {
        guard let date = try optionalDate(key) else { throw missing(key) }
        return date
    }

    func optionalCase<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RPCError) -> T? {
        guard let text = try optionalString(key) else { return nil }
        guard let known = T(rawValue: text) else { throw .invalidParams("\(text) is no \(T.self) this presenter knows.", at: pointer(of: key)) }
        return known
    }

    func enumCase<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RPCError) -> T {
        guard let known = try optionalCase(key, as: T.self) else { throw missing(key) }
        return known
    }

    func optionalRecord<T>(_ key: String, _ read: (EventReader) throws(RPCError) -> T) throws(RPCError) -> T? {
        guard let value = optionalValue(key) else { return nil }
        return try read(try EventReader(value, at: pointer(of: key)))
    }

    func record<T>(_ key: String, _ read: (EventReader) throws(RPCError) -> T) throws(RPCError) -> T {
        guard let result = try optionalRecord(key, read) else { throw missing(key) }
        return result
    }

    /// Each element of the array `key`, read by `read` with its pointer.
    func optionalEach<T>(_ key: String, _ read: (JSONValue, String) throws(RPCError) -> T) throws(RPCError) -> [T]? {
        guard let value = optionalValue(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, "An array", value) }
        var results: [T] = []
        results.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            results.append(try read(element, pointer(of: key) + "/\(index)"))
        }
        return results
    }

    func optionalRecords<T>(_ key: String, _ read: (EventReader) throws(RPCError) -> T) throws(RPCError) -> [T]? {
        try optionalEach(key) { element, pointer throws(RPCError) in try read(try EventReader(element, at: pointer)) }
    }

    func records<T>(_ key: String, _ read: (EventReader) throws(RPCError) -> T) throws(RPCError) -> [T] {
        guard let results = try optionalRecords(key, read) else { throw missing(key) }
        return results
    }

    func optionalStrings(_ key: String) throws(RPCError) -> [String]? {
        try optionalEach(key) { element, pointer throws(RPCError) in
            guard case .string(let string) = element else { throw .invalidParams("A string was expected, not \(element.kindDescription).", at: pointer) }
            return string
        }
    }

    func strings(_ key: String) throws(RPCError) -> [String] {
        guard let strings = try optionalStrings(key) else { throw missing(key) }
        return strings
    }

    func optionalCases<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RPCError) -> [T]? {
        try optionalEach(key) { element, pointer throws(RPCError) in
            guard case .string(let text) = element, let known = T(rawValue: text) else {
                throw .invalidParams("\(element.compactText.prefix(40)) is no \(T.self) this presenter knows.", at: pointer)
            }
            return known
        }
    }
}
