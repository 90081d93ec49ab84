import FoundationEssentials
import HeraldProtocol

/// What is wrong with a record's JSON: the members from the section down to the fault, and
/// a sentence. The section turns it into ``SnapshotFileError``.
package struct RecordDamage: Error {
    /// Member names and array positions, outermost first.
    package var path: [String]
    package var reason: String

    package init(_ reason: String) {
        self.path = []
        self.reason = reason
    }

    /// The same damage, one step further out.
    package func within(_ step: String) -> RecordDamage {
        var outer = self
        outer.path.insert(step, at: 0)
        return outer
    }

    package var description: String {
        path.isEmpty ? reason : "\(path.joined(separator: ".")): \(reason)"
    }
}

/// Reads one of Storage's records from its JSON object, by the member names the snapshot
/// format fixes (never through a wire type's `Codable`, so renaming a wire member leaves the
/// format alone).
///
/// An optional member may be absent or null; members it does not know are ignored, as
/// Foundation's decoder, which wrote and read the format before, ignored them. The path to
/// a fault is built only when one is thrown.
package struct RecordReader {
    package let object: JSONObject

    package init(_ value: JSONValue) throws(RecordDamage) {
        guard case .object(let object) = value else { throw RecordDamage("an object was expected, not \(value.kindDescription).") }
        self.object = object
    }

    /// The member named `key`, or nil when it is absent or null.
    package func optionalValue(_ key: String) -> JSONValue? {
        switch object[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    package func value(_ key: String) throws(RecordDamage) -> JSONValue {
        guard let value = optionalValue(key) else { throw RecordDamage("the member is missing.").within(key) }
        return value
    }

    // MARK: Leaves

    package func optionalString(_ key: String) throws(RecordDamage) -> String? {
        try optionalValue(key).map { value throws(RecordDamage) in try Self.string(value, key) }
    }

    package func string(_ key: String) throws(RecordDamage) -> String {
        try Self.string(try value(key), key)
    }

    package func optionalBool(_ key: String) throws(RecordDamage) -> Bool? {
        guard let value = optionalValue(key) else { return nil }
        guard case .bool(let bool) = value else { throw RecordDamage("a boolean was expected, not \(value.kindDescription).").within(key) }
        return bool
    }

    package func bool(_ key: String) throws(RecordDamage) -> Bool {
        guard let bool = try optionalBool(key) else { throw RecordDamage("the member is missing.").within(key) }
        return bool
    }

    package func optionalInteger<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(RecordDamage) -> T? {
        guard let value = optionalValue(key) else { return nil }
        guard case .number(let number) = value, let integer = T(number.literal) else {
            throw RecordDamage("an integer of \(T.self) was expected, not \(value.compactText.prefix(40)).").within(key)
        }
        return integer
    }

    package func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(RecordDamage) -> T {
        guard let integer = try optionalInteger(key, as: T.self) else { throw RecordDamage("the member is missing.").within(key) }
        return integer
    }

    package func optionalDouble(_ key: String) throws(RecordDamage) -> Double? {
        guard let value = optionalValue(key) else { return nil }
        guard case .number(let number) = value, let double = number.doubleValue, double.isFinite else {
            throw RecordDamage("a finite number was expected, not \(value.compactText.prefix(40)).").within(key)
        }
        return double
    }

    /// A date, as ``RecordMembers`` writes it: seconds since 2001-01-01 (Foundation's
    /// reference date), so that it comes back exactly.
    package func optionalDate(_ key: String) throws(RecordDamage) -> Date? {
        try optionalDouble(key).map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    package func date(_ key: String) throws(RecordDamage) -> Date {
        guard let date = try optionalDate(key) else { throw RecordDamage("the member is missing.").within(key) }
        return date
    }

    package func optionalCase<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RecordDamage) -> T? {
        try optionalValue(key).map { value throws(RecordDamage) in try Self.enumCase(value, T.self, key) }
    }

    package func enumCase<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RecordDamage) -> T {
        try Self.enumCase(try value(key), T.self, key)
    }

    // MARK: Arrays and nested records

    package func optionalArray(_ key: String) throws(RecordDamage) -> [JSONValue]? {
        guard let value = optionalValue(key) else { return nil }
        guard case .array(let elements) = value else { throw RecordDamage("an array was expected, not \(value.kindDescription).").within(key) }
        return elements
    }

    /// The elements of the array `key`, each read by `read`; nil when it is absent.
    package func optionalEach<T>(_ key: String, _ read: (JSONValue) throws(RecordDamage) -> T) throws(RecordDamage) -> [T]? {
        guard let elements = try optionalArray(key) else { return nil }
        do {
            return try Self.each(elements, read)
        } catch {
            throw error.within(key)
        }
    }

    /// `read` of each of `elements`; damage names the element's position.
    package static func each<T>(_ elements: [JSONValue], _ read: (JSONValue) throws(RecordDamage) -> T) throws(RecordDamage) -> [T] {
        var results: [T] = []
        results.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                results.append(try read(element))
            } catch {
                throw error.within(String(index))
            }
        }
        return results
    }

    /// `read` of each element of `value`, an array of objects: a section that is an array.
    package static func records<T>(in value: JSONValue, _ read: (RecordReader) throws(RecordDamage) -> T) throws(RecordDamage) -> [T] {
        guard case .array(let elements) = value else { throw RecordDamage("an array was expected, not \(value.kindDescription).") }
        return try each(elements) { element throws(RecordDamage) in try read(try RecordReader(element)) }
    }

    package func each<T>(_ key: String, _ read: (JSONValue) throws(RecordDamage) -> T) throws(RecordDamage) -> [T] {
        guard let results = try optionalEach(key, read) else { throw RecordDamage("the member is missing.").within(key) }
        return results
    }

    package func optionalRecord<T>(_ key: String, _ read: (RecordReader) throws(RecordDamage) -> T) throws(RecordDamage) -> T? {
        guard let value = optionalValue(key) else { return nil }
        do {
            return try read(try RecordReader(value))
        } catch {
            throw error.within(key)
        }
    }

    package func record<T>(_ key: String, _ read: (RecordReader) throws(RecordDamage) -> T) throws(RecordDamage) -> T {
        guard let result = try optionalRecord(key, read) else { throw RecordDamage("the member is missing.").within(key) }
        return result
    }

    /// `read` of each element of the array `key`, each an object.
    package func optionalRecords<T>(_ key: String, _ read: (RecordReader) throws(RecordDamage) -> T) throws(RecordDamage) -> [T]? {
        try optionalEach(key) { element throws(RecordDamage) in try read(try RecordReader(element)) }
    }

    package func records<T>(_ key: String, _ read: (RecordReader) throws(RecordDamage) -> T) throws(RecordDamage) -> [T] {
        guard let results = try optionalRecords(key, read) else { throw RecordDamage("the member is missing.").within(key) }
        return results
    }

    package func optionalStrings(_ key: String) throws(RecordDamage) -> [String]? {
        try optionalEach(key) { element throws(RecordDamage) in try Self.string(element, nil) }
    }

    package func strings(_ key: String) throws(RecordDamage) -> [String] {
        try each(key) { element throws(RecordDamage) in try Self.string(element, nil) }
    }

    package func optionalCases<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(RecordDamage) -> [T]? {
        try optionalEach(key) { element throws(RecordDamage) in try Self.enumCase(element, T.self, nil) }
    }

    /// A client's own JSON (`userInfo`, `sound`, a call record), as ``RecordMembers/addClientJSON(_:_:)``
    /// writes it.
    package func optionalClientJSON(_ key: String) throws(RecordDamage) -> JSONValue? {
        guard let value = optionalValue(key) else { return nil }
        do {
            return try ClientJSON.read(value)
        } catch {
            throw error.within(key)
        }
    }

    // MARK: Primitives

    private static func string(_ value: JSONValue, _ key: String?) throws(RecordDamage) -> String {
        guard case .string(let string) = value else {
            let damage = RecordDamage("a string was expected, not \(value.kindDescription).")
            throw key.map { damage.within($0) } ?? damage
        }
        return string
    }

    private static func enumCase<T: RawRepresentable<String>>(_ value: JSONValue, _ type: T.Type, _ key: String?) throws(RecordDamage) -> T {
        guard case .string(let string) = value, let known = T(rawValue: string) else {
            let damage = RecordDamage("\(value.compactText.prefix(40)) is no \(T.self) this build knows.")
            throw key.map { damage.within($0) } ?? damage
        }
        return known
    }
}

/// The deepest nesting a section's JSON may have: a client's JSON (its objects two levels
/// each, as ``ClientJSON`` pairs) inside a notification inside a response. Foundation's
/// decoder, which read the sections before, stopped at the same depth.
package let sectionMaximumDepth = 512
