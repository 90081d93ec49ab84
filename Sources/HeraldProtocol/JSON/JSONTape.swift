/// A parsed JSON text kept as its bytes and one flat array of entries, one per value (and
/// one per object member's name), in document order: a request is read without building a
/// tree of ``JSONValue``s, and a leaf is decoded only when something asks for it.
///
/// Parsing checks exactly what ``JSONParser`` checks, with the same errors: a text is a tape
/// if and only if it parses. A request costs three allocations here (the tape, its bytes,
/// its entries) where a tree takes one per object, array and long string.
///
/// Entries: an object's entry is followed by its members, each a `.name` entry and then the
/// value's entries; an array's by its elements. Every entry knows its parent and where the
/// entries of its value end (`next`), so walking an object's members skips their subtrees,
/// and a value's JSON Pointer is found from the value alone, for an error.
package final class JSONTape: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
        /// An object member's name; its value's entries follow it.
        case name
    }

    struct Entry: Sendable {
        var kind: Kind
        /// A string or name that holds an escape, decoded apart.
        var isEscaped: Bool
        /// The value's first byte; a string's (or name's) first byte inside its quotes.
        var start: UInt32
        /// One past the value's last byte; for a string, its closing quote.
        var end: UInt32
        /// The index of the entry after this value and everything inside it.
        var next: UInt32
        /// The index of the array or object this value is in; the root's is its own.
        var parent: UInt32
        /// An array's elements or an object's members.
        var count: UInt32
    }

    let bytes: [UInt8]
    let entries: [Entry]
    /// The pointer of the root, in front of every pointer into the tape: "" for a request's
    /// params, `/payload` for a value read on its own.
    let rootPointer: String

    init(bytes: [UInt8], entries: [Entry], rootPointer: String) {
        self.bytes = bytes
        self.entries = entries
        self.rootPointer = rootPointer
    }

    /// The text's size in bytes.
    package var byteCount: Int { bytes.count }

    /// The tape of `{}`: the params of a request that sends none.
    package static let emptyObject = JSONTape(.object(JSONObject()))

    /// The text's value.
    package var root: JSONNode { JSONNode(tape: self, index: 0, root: 0) }

    /// Parses one whole JSON text, optionally surrounded by whitespace.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 64) throws(JSONParseError) -> JSONTape {
        var builder = JSONTapeBuilder(reader: JSONReader(bytes: bytes, maxDepth: maxDepth))
        try builder.readText()
        return JSONTape(bytes: Array(bytes), entries: builder.entries, rootPointer: "")
    }

    package static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSONTape {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// The value at the start of `bytes` and how many bytes it takes; nil when `bytes` do
    /// not begin with a whole, valid value within the depth limit. What follows the value
    /// is not looked at: this is the framer's one pass over a text that arrived whole.
    package static func parsePrefix(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> (JSONTape, Int)? {
        guard bytes.count < Int(UInt32.max) else { return nil }
        var builder = JSONTapeBuilder(reader: JSONReader(bytes: bytes, maxDepth: maxDepth))
        guard (try? builder.readValue(parent: 0)) != nil else { return nil }
        let length = builder.reader.index
        return (JSONTape(bytes: Array(bytes[..<length]), entries: builder.entries, rootPointer: ""), length)
    }

    /// The tape of a value built in memory (a test's params, a value read on its own),
    /// whose pointers begin with `rootPointer`.
    package convenience init(_ value: JSONValue, rootPointer: String = "") {
        var text: [UInt8] = []
        value.write(to: &text)
        let entries = text.withUnsafeBytes { buffer in
            var builder = JSONTapeBuilder(reader: JSONReader(bytes: buffer, maxDepth: .max))
            do {
                try builder.readText()
            } catch {
                preconditionFailure("A JSONValue writes valid JSON: \(error)")
            }
            return builder.entries
        }
        self.init(bytes: text, entries: entries, rootPointer: rootPointer)
    }

    /// Equal when the values are, as ``JSONValue`` compares them.
    package static func == (lhs: JSONTape, rhs: JSONTape) -> Bool {
        lhs.root.value == rhs.root.value
    }

    package var description: String { root.value.compactText }
}

/// One value of a ``JSONTape``: read as it is asked for.
///
/// Pointers are relative to a root value — the tape's, or the one ``asRoot`` made (a
/// request's params, whose errors point from the params down) — which the values reached
/// from a node keep.
package struct JSONNode: Sendable {
    package let tape: JSONTape
    private let position: UInt32
    /// The index of the value its pointers start from.
    let rootPosition: UInt32

    init(tape: JSONTape, index: Int, root: UInt32) {
        self.tape = tape
        self.position = UInt32(index)
        self.rootPosition = root
    }

    var index: Int { Int(position) }

    /// A value reached from this one, with the same root.
    func node(at index: Int) -> JSONNode {
        JSONNode(tape: tape, index: index, root: rootPosition)
    }

    /// This value, as the root its pointers and those of the values inside it start from.
    package var asRoot: JSONNode {
        JSONNode(tape: tape, index: index, root: position)
    }

    var entry: JSONTape.Entry { tape.entries[index] }

    package var kind: JSONTape.Kind { tape.entries[index].kind }

    package var isNull: Bool { kind == .null }

    /// How many elements or members; 0 for anything else.
    package var count: Int { Int(entry.count) }

    /// The JSON type's name as a person reads it in an error, as ``JSONValue/kindDescription``.
    package var kindDescription: String { kind.description }

    package var boolValue: Bool? { kind.boolValue }

    /// A string's value (or a name's), decoded.
    package var stringValue: String? { tape.stringValue(at: index) }

    /// A number's literal text.
    package var numberLiteral: String? { tape.numberLiteral(at: index) }

    /// Whether this string holds exactly `text`, compared as bytes.
    package func stringEquals(_ text: String) -> Bool {
        guard kind == .string || kind == .name else { return false }
        return tape.string(at: index, equals: text)
    }

    /// The value of the last member named `name`, as ``JSONObject``'s subscript answers;
    /// nil when there is none or this is not an object.
    package subscript(member name: String) -> JSONNode? {
        lastMember(named: name)?.value
    }

    /// The value of the last member named `name`, and its place among the members (0 for
    /// the first); nil when there is none or this is not an object.
    package func lastMember(named name: String) -> (value: JSONNode, ordinal: Int)? {
        guard kind == .object, let found = JSONTape.withBytes(of: name, { tape.lastMember(of: index, named: $0) })
        else { return nil }
        return (node(at: found.value), found.ordinal)
    }

    /// An object's members, in order, duplicates included.
    package var members: [(name: String, value: JSONNode)] {
        guard kind == .object else { return [] }
        var members: [(name: String, value: JSONNode)] = []
        members.reserveCapacity(count)
        var position = index + 1
        let end = Int(entry.next)
        while position < end {
            members.append((tape.string(at: position), node(at: position + 1)))
            position = Int(tape.entries[position + 1].next)
        }
        return members
    }

    /// An array's elements, in order.
    package var elements: [JSONNode] {
        guard kind == .array else { return [] }
        var elements: [JSONNode] = []
        elements.reserveCapacity(count)
        var position = index + 1
        let end = Int(entry.next)
        while position < end {
            elements.append(node(at: position))
            position = Int(tape.entries[position].next)
        }
        return elements
    }

    /// The value as a tree, exactly as ``JSONParser`` would have read it.
    package var value: JSONValue {
        switch kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(literal: numberLiteral!))
        case .string, .name: return .string(tape.string(at: index))
        case .array: return .array(elements.map(\.value))
        case .object: return .object(JSONObject(members.map { JSONObject.Member(key: $0.name, value: $0.value.value) }))
        }
    }

    /// The JSON Pointer of this value from its root, the tape's root pointer first.
    package var pointer: String {
        var tokens: [String] = []
        var position = index
        let root = Int(rootPosition)
        while position != root {
            let parent = Int(tape.entries[position].parent)
            if tape.entries[parent].kind == .object {
                tokens.append(tape.string(at: position - 1))
            } else {
                var element = 0
                var sibling = parent + 1
                while sibling < position {
                    sibling = Int(tape.entries[sibling].next)
                    element += 1
                }
                tokens.append(String(element))
            }
            position = parent
        }
        return tape.rootPointer + JSONPointer(tokens: tokens.reversed()).description
    }

    /// The pointer of this object's member `name`, present or not.
    package func pointer(toMember name: String) -> String {
        pointer + "/" + JSONPointer.escape(name)
    }

    /// The JSON Pointer, from this value, of the first string — a value, or a member's
    /// name — longer than `maxBytes` bytes of UTF-8, or nil when none is; a value of a
    /// member named in `ownLimits` is held to that member's own limit instead. Only a
    /// string too long pays for its pointer, and only a long one for its member's name.
    package func pointerToString(
        longerThan maxBytes: Int, ownLimits: [String: Int] = [:]
    ) -> (pointer: String, limit: Int, member: String?)? {
        let end = Int(entry.next)
        let shortest = ownLimits.values.reduce(maxBytes, min)
        for position in index..<end {
            let entry = tape.entries[position]
            guard entry.kind == .string || entry.kind == .name, Int(entry.end - entry.start) > shortest else { continue }
            var limit = maxBytes
            var member: String?
            if entry.kind == .string, position > 0, tape.entries[position - 1].kind == .name,
                tape.entries[Int(entry.parent)].kind == .object
            {
                member = ownLimits.keys.first { tape.string(at: position - 1, equals: $0) }
                limit = member.flatMap { ownLimits[$0] } ?? maxBytes
            }
            guard Int(entry.end - entry.start) > limit else { continue }
            // An escape makes the text longer than the string it stands for.
            guard !entry.isEscaped || tape.string(at: position).utf8.count > limit else { continue }
            // A name too long is pointed at by its object: the pointer stays short.
            return (asRoot.node(at: entry.kind == .name ? Int(entry.parent) : position).pointer, limit, member)
        }
        return nil
    }
}

extension JSONTape.Kind {
    /// The JSON type's name as a person reads it in an error, as ``JSONValue/kindDescription``.
    var description: String {
        switch self {
        case .null: "null"
        case .false, .true: "a boolean"
        case .number: "a number"
        case .string, .name: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    var boolValue: Bool? {
        switch self {
        case .true: true
        case .false: false
        default: nil
        }
    }
}

extension JSONTape {
    /// The string's (or name's) value at `index`, decoded; nil for another kind.
    func stringValue(at index: Int) -> String? {
        let kind = entries[index].kind
        guard kind == .string || kind == .name else { return nil }
        return string(at: index)
    }

    /// The literal text of the number at `index`; nil for another kind.
    func numberLiteral(at index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .number else { return nil }
        return bytes.withUnsafeBytes { buffer in
            String(decoding: UnsafeRawBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
    }

    /// The index of the entry after the value at `index` and everything inside it: the
    /// next element, or the next member's name.
    func entryAfter(_ index: Int) -> Int {
        Int(entries[index].next)
    }

    /// The string or name at `index`, decoded.
    func string(at index: Int) -> String {
        let entry = entries[index]
        return bytes.withUnsafeBytes { buffer in
            if !entry.isEscaped {
                return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
            }
            var reader = JSONReader(bytes: buffer, maxDepth: 0)
            reader.index = Int(entry.start) - 1
            // Checked when the tape was built.
            return (try? reader.readString()) ?? ""
        }
    }

    /// Whether the string or name at `index` is `text`.
    func string(at index: Int, equals text: String) -> Bool {
        let entry = entries[index]
        guard !entry.isEscaped else { return string(at: index) == text }
        return Self.withBytes(of: text) { utf8 in
            bytes.withUnsafeBufferPointer { bytes in Self.equal(bytes, entry, utf8) }
        }
    }

    /// `text`'s UTF-8 in place: a native string's, small ones included, is contiguous.
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The index of the value of the last member of the object at `object` named `name`,
    /// and that member's place among the object's members (0 for the first).
    ///
    /// Every request reads its members by name, so this is a tight loop: lengths first, then
    /// the bytes; a name with an escape (rare) is decoded to compare.
    func lastMember(of object: Int, named name: UnsafeBufferPointer<UInt8>) -> (value: Int, ordinal: Int)? {
        entries.withUnsafeBufferPointer { entries in
            bytes.withUnsafeBufferPointer { bytes in
                var found: (value: Int, ordinal: Int)?
                var position = object + 1
                var ordinal = 0
                let end = Int(entries[object].next)
                while position < end {
                    let entry = entries[position]
                    if entry.isEscaped {
                        if string(at: position) == String(decoding: name, as: UTF8.self) { found = (position + 1, ordinal) }
                    } else if Self.equal(bytes, entry, name) {
                        found = (position + 1, ordinal)
                    }
                    position = Int(entries[position + 1].next)
                    ordinal += 1
                }
                return found
            }
        }
    }

    /// Whether the unescaped string `entry` is `text`'s bytes.
    @inline(__always)
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(entry.start)
        let length = Int(entry.end) - start
        guard length == text.count else { return false }
        var offset = 0
        while offset < length {
            guard bytes[start + offset] == text[offset] else { return false }
            offset += 1
        }
        return true
    }
}

/// Builds a tape's entries with ``JSONReader``'s grammar and errors.
struct JSONTapeBuilder {
    var reader: JSONReader
    var entries: [JSONTape.Entry] = []

    init(reader: JSONReader) {
        self.reader = reader
        // A `donate` takes about 45 entries: room for them from the start.
        entries.reserveCapacity(64)
    }

    mutating func readText() throws(JSONParseError) {
        reader.skipWhitespace()
        guard reader.index < reader.bytes.count else {
            throw .unexpectedEnd("before any value", at: reader.index)
        }
        guard reader.bytes.count < Int(UInt32.max) else {
            throw .invalid("The text is too large", at: 0)
        }
        try readValue(parent: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else {
            throw .invalid("Unexpected \(reader.describe(reader.bytes[reader.index])) after the end of the value", at: reader.index)
        }
    }

    /// Appends an entry for a leaf that ends at the reader's index.
    private mutating func appendLeaf(_ kind: JSONTape.Kind, from start: Int, parent: Int, isEscaped: Bool = false) {
        append(kind, from: start, to: kind == .string ? reader.index - 1 : reader.index, parent: parent, isEscaped: isEscaped)
    }

    /// Appends an entry for a leaf, or a member's name, at `start..<end` of the bytes.
    private mutating func append(_ kind: JSONTape.Kind, from start: Int, to end: Int, parent: Int, isEscaped: Bool) {
        let next = UInt32(entries.count + 1)
        entries.append(
            JSONTape.Entry(
                kind: kind, isEscaped: isEscaped, start: UInt32(start), end: UInt32(end), next: next,
                parent: UInt32(parent), count: 0
            )
        )
    }

    mutating func readValue(parent: Int) throws(JSONParseError) {
        let bytes = reader.bytes
        let start = reader.index
        guard start < bytes.count else {
            throw .unexpectedEnd("where a value was expected", at: start)
        }
        switch bytes[start] {
        case UInt8(ascii: "{"): try readObject(parent: parent)
        case UInt8(ascii: "["): try readArray(parent: parent)
        case UInt8(ascii: "\""):
            let isEscaped = try reader.skipString()
            appendLeaf(.string, from: start + 1, parent: parent, isEscaped: isEscaped)
        case UInt8(ascii: "t"):
            try reader.readLiteral("true")
            appendLeaf(.true, from: start, parent: parent)
        case UInt8(ascii: "f"):
            try reader.readLiteral("false")
            appendLeaf(.false, from: start, parent: parent)
        case UInt8(ascii: "n"):
            try reader.readLiteral("null")
            appendLeaf(.null, from: start, parent: parent)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try reader.skipNumber()
            appendLeaf(.number, from: start, parent: parent)
        case let byte: throw .invalid("Unexpected \(reader.describe(byte)) where a value was expected", at: start)
        }
    }

    /// Opens a container's entry; `close` fills in where it ends.
    private mutating func open(_ kind: JSONTape.Kind, parent: Int) throws(JSONParseError) -> Int {
        let start = reader.index
        try reader.enterContainer()
        let index = entries.count
        entries.append(
            JSONTape.Entry(
                kind: kind, isEscaped: false, start: UInt32(start), end: 0, next: 0,
                parent: UInt32(index == 0 ? 0 : parent), count: 0
            )
        )
        return index
    }

    /// Fills in where the container at `index` ends, the reader just past its bracket.
    private mutating func close(_ index: Int, count: Int) {
        entries[index].end = UInt32(reader.index)
        entries[index].next = UInt32(entries.count)
        entries[index].count = UInt32(count)
    }

    private mutating func readArray(parent: Int) throws(JSONParseError) {
        let array = try open(.array, parent: parent)
        var count = 0
        if !reader.leaveIfEmpty(.array) {
            repeat {
                reader.skipWhitespace()
                try readValue(parent: array)
                count += 1
            } while try !reader.leaveAfterElement(.array)
        }
        close(array, count: count)
    }

    private mutating func readObject(parent: Int) throws(JSONParseError) {
        let object = try open(.object, parent: parent)
        var count = 0
        if !reader.leaveIfEmpty(.object) {
            repeat {
                let name = try reader.readMemberName { reader throws(JSONParseError) in
                    let start = reader.index + 1
                    let isEscaped = try reader.skipString()
                    return (start: start, end: reader.index - 1, isEscaped: isEscaped)
                }
                append(.name, from: name.start, to: name.end, parent: object, isEscaped: name.isEscaped)
                try readValue(parent: object)
                count += 1
            } while try !reader.leaveAfterElement(.object)
        }
        close(object, count: count)
    }
}

extension JSONNode {
    /// An object's or array's JSON text as it came, brackets included, where the parsed
    /// text holds it: what the change log keeps of a request's params. Empty for any
    /// other value.
    package var containerText: ArraySlice<UInt8> {
        guard kind == .object || kind == .array else { return [] }
        let entry = self.entry
        return tape.bytes[Int(entry.start)..<Int(entry.end)]
    }
}
