/// The one way params become typed values: each params type reads itself from the parsed
/// JSON, once, in one place, strictly.
///
/// Adopting it for a new params type (or converting one from `Decodable`):
///
///     extension MyParams: ParamsReadable {
///         package init(reading value: ParamsReader) throws(RPCError) {
///             self = try value.object { members throws(RPCError) in
///                 MyParams(
///                     app: try members.required("app"),           // absent: "is required"
///                     limit: try members.optional("limit"),       // absent or null: nil
///                     all: try members.optional("all", default: false),
///                     userInfo: try members.optional("userInfo")  // a JSONValue: open-ended
///                 )
///             }
///         }
///     }
///
/// and `Params: ParamsReadable` is all `HeraldMethod` asks. Every member the closure reads
/// is a known member; any other member of the object is -32602 with `data.pointer` at it
/// and, when a known name is close, "did you mean …?". The closure only reads: it runs a
/// second time when an object holds an unknown member, to name it. Leaves (`String`,
/// `Bool`, `Int`, `UInt32` — other integers through ``ParamsReader/integer(_:)`` —
/// `Double`, `Date` as RFC 3339, `JSONValue`, arrays, `JSONEnum`s) are `ParamsReadable`
/// already; a member of a nested params type reads through that type's `init(reading:)`.
/// Keep `Codable` where clients encode params or the snapshot stores the type; it is never
/// used to read a request.
package protocol ParamsReadable {
    /// Reads a value at the reader's place; every failure is "Invalid params" naming it.
    init(reading value: ParamsReader) throws(RPCError)
}

extension ParamsReadable {
    /// Reads a request's `params` (the root of the pointers in errors).
    package static func read(params: JSONNode) throws(RPCError) -> Self {
        try Self(reading: ParamsReader(params.asRoot))
    }

    /// Reads params built in memory (a test's, a value read on its own).
    package static func read(params: JSONValue) throws(RPCError) -> Self {
        try Self(reading: ParamsReader(params))
    }
}

/// A JSON value inside params, and where it is: a value of the request's ``JSONTape``, so
/// reading it builds no tree, and its pointer is found from the tape only for an error.
///
/// The readers of members and elements do not retain the tape: a donation reads some
/// fifty values, and a retain and a release of one shared count for each cost it about
/// 0.8 µs (docs/performance.md, "The tape's count"). The outermost reader, made from a
/// node or a value, holds it for them; they are made inside its reading and handed down,
/// never kept past it — read a value out (``value``, ``node``) to keep it.
package struct ParamsReader: Sendable {
    /// The tape, held by the outermost reader only.
    private let owner: JSONTape?
    /// The tape, not retained: read through ``withTape(_:)``, which lends it without a
    /// retain (`unowned(unsafe)` would retain it at each use).
    private let tape: Unmanaged<JSONTape>
    private let position: UInt32
    private let rootPosition: UInt32

    /// The reader of a value whose pointers start where `node`'s root is: a request's params
    /// are made the root (``JSONNode/asRoot``) before they are read.
    package init(_ node: JSONNode) {
        owner = node.tape
        tape = Unmanaged.passUnretained(node.tape)
        position = UInt32(node.index)
        rootPosition = node.rootPosition
    }

    /// The reader of the value at `index` of the tape `parent` reads, which it lives inside.
    private init(_ index: Int, inside parent: ParamsReader) {
        owner = nil
        tape = parent.tape
        position = UInt32(index)
        rootPosition = parent.rootPosition
    }

    /// The reader of a value built in memory at `pointer` (a JSON Pointer text; "" is the
    /// root of params).
    package init(_ value: JSONValue, at pointer: String = "") {
        self.init(JSONTape(value, rootPointer: pointer).root)
    }

    /// The value as a node of its tape, which the node holds.
    package var node: JSONNode { JSONNode(tape: tape.takeUnretainedValue(), index: index, root: rootPosition) }

    private var index: Int { Int(position) }

    /// `body` with the tape, lent for the call.
    @inline(__always)
    private func withTape<Result>(_ body: (JSONTape) -> Result) -> Result {
        tape._withUnsafeGuaranteedRef(body)
    }

    /// The value as a tree: for open-ended members (`userInfo`), kept as sent.
    package var value: JSONValue { node.value }

    package var kind: JSONTape.Kind { withTape { $0.entries[index].kind } }

    package var isNull: Bool { kind == .null }

    /// How many elements or members; 0 for anything else.
    var count: Int { withTape { Int($0.entries[index].count) } }

    package var boolValue: Bool? { kind.boolValue }

    /// A string's value, decoded.
    package var stringValue: String? { withTape { $0.stringValue(at: index) } }

    /// A number's literal text.
    package var numberLiteral: String? { withTape { $0.numberLiteral(at: index) } }

    /// The JSON type's name as a person reads it in an error: "a string".
    package var kindDescription: String { kind.description }

    /// The JSON Pointer of this value, for an error.
    package var pointer: String { node.pointer }

    /// "Invalid params" at this value, with a sentence that names it in backquotes
    /// ("params" at the root) followed by `predicate`: "`/app` must be a string, not a number."
    package func error(_ predicate: String) -> RPCError {
        let pointer = self.pointer
        return .invalidParams("\(JSONPointer.subject(pointer)) \(predicate)", at: pointer)
    }

    /// "must be a string, not a number."
    package func mismatch(expected: String) -> RPCError {
        error("must be \(expected), not \(kindDescription).")
    }

    /// Reads the members of an object with `body`, then refuses any member `body` did not
    /// ask for.
    package func object<Value>(
        _ body: (inout ParamsObjectReader) throws(RPCError) -> Value
    ) throws(RPCError) -> Value {
        guard kind == .object else { throw mismatch(expected: "an object") }
        var members = ParamsObjectReader(object: self, recordsNames: false)
        let read = try body(&members)
        if members.mayHoldUnknownMembers {
            // Rare: read again, this time writing down the known names, to find the
            // unknown member and the known name closest to it. The same input reads the
            // same way, so this pass throws only for the unknown member.
            var recording = ParamsObjectReader(object: self, recordsNames: true)
            _ = try body(&recording)
            try recording.refuseUnknownMembers()
        }
        return read
    }

    /// Reads each element of an array as an `Element`.
    package func array<Element: ParamsReadable>(of type: Element.Type = Element.self) throws(RPCError) -> [Element] {
        guard kind == .array else { throw mismatch(expected: "an array") }
        var read: [Element] = []
        read.reserveCapacity(count)
        var element = index + 1
        let end = withTape { $0.entryAfter(index) }
        while element < end {
            read.append(try Element(reading: ParamsReader(element, inside: self)))
            element = withTape { $0.entryAfter(element) }
        }
        return read
    }

    /// The reader of the value of the last member of this object named `name` (its UTF-8),
    /// and the member's place among the object's members; nil when there is none.
    fileprivate func lastMember(named name: UnsafeBufferPointer<UInt8>) -> (value: ParamsReader, ordinal: Int)? {
        let index = self.index
        guard let (value, ordinal) = withTape({ $0.lastMember(of: index, named: name) }) else { return nil }
        return (ParamsReader(value, inside: self), ordinal)
    }
}

/// The members of one object in params, read by name; records which names are known.
package struct ParamsObjectReader: Sendable {
    let object: ParamsReader
    /// Whether `knownNames` is kept: only on the second pass after the first found fewer
    /// known members than members (see ``ParamsReader/object(_:)``).
    private let recordsNames: Bool
    /// The names asked for: the object's known members.
    private(set) var knownNames: [String] = []
    /// How many of the names asked for were present.
    private var presentCount = 0
    /// The places of the members found so far, of an object of at most 64 members: once
    /// every member is found, a name asked for after is absent without a look.
    private var foundMembers: UInt64 = 0
    /// `foundMembers` once every member is found; nil for an object of more than 64.
    private let allMembers: UInt64?

    init(object: ParamsReader, recordsNames: Bool) {
        self.object = object
        self.recordsNames = recordsNames
        let count = object.count
        allMembers = count > 64 ? nil : count == 64 ? .max : (1 << UInt64(count)) - 1
    }

    /// Whether some member was not asked for. Fewer known members present than members
    /// means an unknown member or a known one repeated (the last of its name counts, as
    /// the parser documents); only distinct names tell which, so a repeated member never
    /// costs a second pass (which, nested, would multiply).
    var mayHoldUnknownMembers: Bool {
        guard presentCount < object.count else { return false }
        return Set(object.node.members.lazy.map(\.name)).count > presentCount
    }

    /// The reader of the member `name`, nil when it is absent; `name` becomes known.
    ///
    /// Names are the types' own literals (`StaticString`): their bytes are at hand, with no
    /// string to look into.
    package mutating func member(_ name: StaticString) -> ParamsReader? {
        if recordsNames { knownNames.append(name.description) }
        return name.withUTF8Buffer { member(utf8: $0) }
    }

    /// The reader of the member named `name` made at run time (a test's), as ``member(_:)``.
    package mutating func member(named name: String) -> ParamsReader? {
        if recordsNames { knownNames.append(name) }
        return JSONTape.withBytes(of: name) { member(utf8: $0) }
    }

    private mutating func member(utf8 name: UnsafeBufferPointer<UInt8>) -> ParamsReader? {
        // Most of a type's members are optional and most requests send a few: once each of
        // the object's members has been read, the rest are absent.
        if let allMembers, foundMembers == allMembers { return nil }
        guard let (value, ordinal) = object.lastMember(named: name) else { return nil }
        presentCount += 1
        if ordinal < 64 { foundMembers |= 1 << UInt64(ordinal) }
        return value
    }

    /// A member that must be present and not null.
    package mutating func required<Value: ParamsReadable>(
        _ name: StaticString, as type: Value.Type = Value.self
    ) throws(RPCError) -> Value {
        guard let member = member(name) else {
            let name = name.description
            // A misspelt required member is reported as what it is, not as a missing one.
            if let misspelt = object.node.members.first(where: { ClosestName.closest(to: $0.name, among: [name]) != nil }) {
                throw unknownMember(misspelt.name, suggestion: name)
            }
            let pointer = object.node.pointer(toMember: name)
            throw .invalidParams("\(JSONPointer.subject(pointer)) is required.", at: pointer)
        }
        return try Value(reading: member)
    }

    /// A member that may be absent or null (both nil).
    package mutating func optional<Value: ParamsReadable>(
        _ name: StaticString, as type: Value.Type = Value.self
    ) throws(RPCError) -> Value? {
        guard let member = member(name), !member.isNull else { return nil }
        return try Value(reading: member)
    }

    /// A member named at run time (a test's) that may be absent or null, as ``optional(_:as:)``.
    package mutating func optional<Value: ParamsReadable>(
        named name: String, as type: Value.Type = Value.self
    ) throws(RPCError) -> Value? {
        guard let member = member(named: name), !member.isNull else { return nil }
        return try Value(reading: member)
    }

    /// A member that may be absent or null, then `defaultValue`.
    package mutating func optional<Value: ParamsReadable>(_ name: StaticString, default defaultValue: Value) throws(RPCError) -> Value {
        try optional(name, as: Value.self) ?? defaultValue
    }

    /// A member whose value is read but not kept (such as content's `communication`, which
    /// Herald writes and ignores on input): known, and never an error.
    package mutating func ignored(_ name: StaticString) {
        _ = member(name)
    }

    /// Throws for the first member no read asked for: "-32602, unknown member", with the
    /// closest known name when one is close.
    func refuseUnknownMembers() throws(RPCError) {
        if let unknown = object.node.members.first(where: { !knownNames.contains($0.name) }) {
            throw unknownMember(unknown.name, suggestion: ClosestName.closest(to: unknown.name, among: knownNames))
        }
    }

    /// "`/focus/alowedPeople` is not a known member; did you mean `allowedPeople`?", or
    /// the known members when none is close.
    private func unknownMember(_ name: String, suggestion: String?) -> RPCError {
        let pointer = object.node.pointer(toMember: name)
        var reason = "\(JSONPointer.subject(pointer)) is not a known member"
        if let suggestion {
            reason += "; did you mean `\(suggestion)`?"
        } else if knownNames.isEmpty {
            reason += "; this object takes no members."
        } else {
            reason += "; the members are \(knownNames.joined(separator: ", "))."
        }
        return .invalidParams(reason, at: pointer)
    }
}
