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
    /// Reads a whole request's `params` (the root of the pointers in errors).
    package static func read(params: JSONValue) throws(RPCError) -> Self {
        try Self(reading: ParamsReader(params))
    }
}

/// A JSON value inside params, and where it is.
///
/// Where it is costs nothing until it is needed: the last step (a member's name or an
/// element's index) is kept beside its parent's path, which is boxed only when a reader
/// descends into an object or an array, or writes an error.
package struct ParamsReader: Sendable {
    package let value: JSONValue
    private let parent: ParamsPath
    private let step: ParamsPath.Step

    /// The reader of a value at `pointer` (a JSON Pointer text; "" is the root of params).
    package init(_ value: JSONValue, at pointer: String = "") {
        self.value = value
        self.parent = pointer.isEmpty ? .root : .prefix(pointer)
        self.step = .none
    }

    init(_ value: JSONValue, parent: ParamsPath, step: ParamsPath.Step) {
        self.value = value
        self.parent = parent
        self.step = step
    }

    /// This value's path, boxed.
    var path: ParamsPath { parent.appending(step) }

    /// The JSON Pointer of this value, for an error.
    package var pointer: String { path.pointer }

    /// "Invalid params" at this value, with a sentence that names it in backquotes
    /// ("params" at the root) followed by `predicate`: "`/app` must be a string, not a number."
    package func error(_ predicate: String) -> RPCError {
        let pointer = self.pointer
        return .invalidParams("\(JSONPointer.subject(pointer)) \(predicate)", at: pointer)
    }

    /// "must be a string, not a number."
    package func mismatch(expected: String) -> RPCError {
        error("must be \(expected), not \(value.kindDescription).")
    }

    /// Reads the members of an object with `body`, then refuses any member `body` did not
    /// ask for.
    package func object<Value>(
        _ body: (inout ParamsObjectReader) throws(RPCError) -> Value
    ) throws(RPCError) -> Value {
        guard case .object(let object) = value else { throw mismatch(expected: "an object") }
        let path = self.path
        var members = ParamsObjectReader(object: object, path: path, recordsNames: false)
        let read = try body(&members)
        if members.mayHoldUnknownMembers {
            // Rare: read again, this time writing down the known names, to find the
            // unknown member and the known name closest to it. The same input reads the
            // same way, so this pass throws only for the unknown member.
            var recording = ParamsObjectReader(object: object, path: path, recordsNames: true)
            _ = try body(&recording)
            try recording.refuseUnknownMembers()
        }
        return read
    }

    /// Reads each element of an array as an `Element`.
    package func array<Element: ParamsReadable>(of type: Element.Type = Element.self) throws(RPCError) -> [Element] {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array") }
        var read: [Element] = []
        read.reserveCapacity(elements.count)
        let path = self.path
        for (index, element) in elements.enumerated() {
            read.append(try Element(reading: ParamsReader(element, parent: path, step: .index(index))))
        }
        return read
    }
}

/// The members of one object in params, read by name; records which names are known.
package struct ParamsObjectReader: Sendable {
    package let object: JSONObject
    let path: ParamsPath
    /// Whether `knownNames` is kept: only on the second pass after the first found fewer
    /// known members than members (see ``ParamsReader/object(_:)``).
    private let recordsNames: Bool
    /// The names asked for: the object's known members.
    private(set) var knownNames: [String] = []
    /// How many of the names asked for were present.
    private var presentCount = 0

    init(object: JSONObject, path: ParamsPath, recordsNames: Bool) {
        self.object = object
        self.path = path
        self.recordsNames = recordsNames
    }

    /// Whether some member was not asked for. Fewer known members present than members
    /// means an unknown member or a known one repeated (the last of its name counts, as
    /// the parser documents); only distinct names tell which, so a repeated member never
    /// costs a second pass (which, nested, would multiply).
    var mayHoldUnknownMembers: Bool {
        guard presentCount < object.count else { return false }
        return Set(object.members.lazy.map(\.key)).count > presentCount
    }

    /// The reader of the member `name`, nil when it is absent; `name` becomes known.
    package mutating func member(_ name: String) -> ParamsReader? {
        if recordsNames { knownNames.append(name) }
        guard let value = object[name] else { return nil }
        presentCount += 1
        return ParamsReader(value, parent: path, step: .member(name))
    }

    /// A member that must be present and not null.
    package mutating func required<Value: ParamsReadable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws(RPCError) -> Value {
        guard let member = member(name) else {
            // A misspelt required member is reported as what it is, not as a missing one.
            if let misspelt = object.members.first(where: { ClosestName.closest(to: $0.key, among: [name]) != nil }) {
                throw unknownMember(misspelt.key, suggestion: name)
            }
            let pointer = ParamsPath.member(name, parent: path).pointer
            throw .invalidParams("\(JSONPointer.subject(pointer)) is required.", at: pointer)
        }
        return try Value(reading: member)
    }

    /// A member that may be absent or null (both nil).
    package mutating func optional<Value: ParamsReadable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws(RPCError) -> Value? {
        guard let member = member(name), !member.value.isNull else { return nil }
        return try Value(reading: member)
    }

    /// A member that may be absent or null, then `defaultValue`.
    package mutating func optional<Value: ParamsReadable>(_ name: String, default defaultValue: Value) throws(RPCError) -> Value {
        try optional(name, as: Value.self) ?? defaultValue
    }

    /// A member whose value is read but not kept (such as content's `communication`, which
    /// Herald writes and ignores on input): known, and never an error.
    package mutating func ignored(_ name: String) {
        _ = member(name)
    }

    /// Throws for the first member no read asked for: "-32602, unknown member", with the
    /// closest known name when one is close.
    func refuseUnknownMembers() throws(RPCError) {
        if let unknown = object.members.first(where: { !knownNames.contains($0.key) }) {
            throw unknownMember(unknown.key, suggestion: ClosestName.closest(to: unknown.key, among: knownNames))
        }
    }

    /// "`/focus/alowedPeople` is not a known member; did you mean `allowedPeople`?", or
    /// the known members when none is close.
    private func unknownMember(_ name: String, suggestion: String?) -> RPCError {
        let pointer = ParamsPath.member(name, parent: path).pointer
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

/// Where a value is in params, kept as a linked list so that descending costs one small
/// allocation; the pointer text is written only for an error.
indirect enum ParamsPath: Sendable {
    case root
    /// A pointer given as text, such as `/payload` for a value read on its own.
    case prefix(String)
    case member(String, parent: ParamsPath)
    case index(Int, parent: ParamsPath)

    /// One step down from a path, not yet boxed.
    enum Step: Sendable {
        case none
        case member(String)
        case index(Int)
    }

    func appending(_ step: Step) -> ParamsPath {
        switch step {
        case .none: self
        case .member(let name): .member(name, parent: self)
        case .index(let index): .index(index, parent: self)
        }
    }

    var pointer: String {
        var tokens: [String] = []
        var node = self
        var prefix = ""
        loop: while true {
            switch node {
            case .root: break loop
            case .prefix(let text):
                prefix = text
                break loop
            case .member(let name, let parent):
                tokens.append(name)
                node = parent
            case .index(let index, let parent):
                tokens.append(String(index))
                node = parent
            }
        }
        return prefix + JSONPointer(tokens: tokens.reversed()).description
    }
}
