import HeraldProtocol

/// A person in a record chunk: which members it has (``PersonRecordFlags``), and how they
/// are written, read back and checked. A member added to `Person` is a flag, a write, a
/// read and a check (``InteractionRecordReader/checkPerson()``), all in this file.
///
/// A person is its flags (a varint padded like a record's), then each member that is
/// present: `handle` (its value, then its type when set), `displayName`, `nameComponents`,
/// `image`, `contactIdentifier`, `customIdentifier`, `aliases` (a count, then each alias as
/// a byte saying whether a type follows, its value and its type), `suggestionType`; `isMe`
/// is two flags.
package struct PersonRecordFlags: OptionSet {
    package let rawValue: UInt64

    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static let hasHandle = PersonRecordFlags(rawValue: 1 << 0)
    package static let hasHandleType = PersonRecordFlags(rawValue: 1 << 1)
    package static let hasDisplayName = PersonRecordFlags(rawValue: 1 << 2)
    package static let hasNameComponents = PersonRecordFlags(rawValue: 1 << 3)
    package static let hasImage = PersonRecordFlags(rawValue: 1 << 4)
    package static let hasContactIdentifier = PersonRecordFlags(rawValue: 1 << 5)
    package static let hasCustomIdentifier = PersonRecordFlags(rawValue: 1 << 6)
    package static let hasAliases = PersonRecordFlags(rawValue: 1 << 7)
    package static let hasSuggestionType = PersonRecordFlags(rawValue: 1 << 8)
    package static let hasIsMe = PersonRecordFlags(rawValue: 1 << 9)
    package static let isMe = PersonRecordFlags(rawValue: 1 << 10)

    package static let known = PersonRecordFlags(rawValue: (1 << 11) - 1)
}

extension InteractionRecordWriter {
    package mutating func appendPeople(_ people: [Person]) {
        appendVarint(UInt64(people.count))
        // In place: a loop over the array would copy each person (a retain of each string).
        people.withUnsafeBufferPointer { people in
            for index in people.indices { appendPerson(people[index]) }
        }
    }

    package mutating func appendPerson(_ person: Person) {
        let flagsAt = reserveFlags()
        var flags: PersonRecordFlags = []
        if let handle = person.handle {
            flags.insert(.hasHandle)
            appendString(handle.value)
            if let type = handle.type {
                flags.insert(.hasHandleType)
                appendCase(type, of: InteractionRecordLayout.handleTypes)
            }
        }
        if let name = person.displayName {
            flags.insert(.hasDisplayName)
            appendString(name)
        }
        if let components = person.nameComponents {
            flags.insert(.hasNameComponents)
            appendRare(NameComponentsRecord.json(components, .snapshot))
        }
        if let image = person.image {
            flags.insert(.hasImage)
            appendRare(ImageRecord.json(image, .snapshot))
        }
        if let contact = person.contactIdentifier {
            flags.insert(.hasContactIdentifier)
            appendString(contact)
        }
        if let custom = person.customIdentifier {
            flags.insert(.hasCustomIdentifier)
            appendString(custom)
        }
        if let aliases = person.aliases {
            flags.insert(.hasAliases)
            appendVarint(UInt64(aliases.count))
            aliases.withUnsafeBufferPointer { aliases in
                for index in aliases.indices {
                    bytes.append(aliases[index].type == nil ? 0 : 1)
                    appendString(aliases[index].value)
                    if let type = aliases[index].type { appendCase(type, of: InteractionRecordLayout.handleTypes) }
                }
            }
        }
        if let suggestion = person.suggestionType {
            flags.insert(.hasSuggestionType)
            appendCase(suggestion, of: InteractionRecordLayout.suggestionTypes)
        }
        if let isMe = person.isMe {
            flags.insert(.hasIsMe)
            if isMe { flags.insert(.isMe) }
        }
        fillFlags(flags.rawValue, at: flagsAt)
    }
}

extension InteractionRecordReader {
    package mutating func people() throws(SnapshotFileError) -> [Person] {
        let count = try self.count()
        var people: [Person] = []
        people.reserveCapacity(count)
        for _ in 0..<count { people.append(try person()) }
        return people
    }

    package mutating func person() throws(SnapshotFileError) -> Person {
        let start = input.cursor
        let flags = PersonRecordFlags(rawValue: try varint())
        guard PersonRecordFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a person has unknown flags.") }
        var person = Person()
        if flags.contains(.hasHandle) {
            let value = try string()
            let type = flags.contains(.hasHandleType) ? try enumCase(InteractionRecordLayout.handleTypes) : nil
            person.handle = PersonHandle(value: value, type: type)
        }
        if flags.contains(.hasDisplayName) { person.displayName = try string() }
        if flags.contains(.hasNameComponents) { person.nameComponents = try rareRecord(NameComponentsRecord.read) }
        if flags.contains(.hasImage) { person.image = try rareRecord(ImageRecord.read) }
        if flags.contains(.hasContactIdentifier) { person.contactIdentifier = try string() }
        if flags.contains(.hasCustomIdentifier) { person.customIdentifier = try string() }
        if flags.contains(.hasAliases) {
            let count = try self.count()
            var aliases: [PersonHandle] = []
            aliases.reserveCapacity(count)
            for _ in 0..<count {
                let hasType = try byte()
                guard hasType <= 1 else { throw input.damaged(at: input.cursor - 1, "an alias starts with \(hasType).") }
                let value = try string()
                aliases.append(PersonHandle(value: value, type: hasType == 1 ? try enumCase(InteractionRecordLayout.handleTypes) : nil))
            }
            person.aliases = aliases
        }
        if flags.contains(.hasSuggestionType) { person.suggestionType = try enumCase(InteractionRecordLayout.suggestionTypes) }
        if flags.contains(.hasIsMe) { person.isMe = flags.contains(.isMe) }
        return person
    }
}

extension InteractionRecordReader {
    /// Checks a list of people as ``people()`` reads it, keeping none.
    mutating func checkPeople() throws(SnapshotFileError) {
        for _ in 0..<(try count()) { try checkPerson() }
    }

    /// Checks a person as ``person()`` reads it — each member in the same order, with the
    /// same checks and errors — without building it.
    mutating func checkPerson() throws(SnapshotFileError) {
        let start = input.cursor
        let flags = PersonRecordFlags(rawValue: try varint())
        guard PersonRecordFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a person has unknown flags.") }
        if flags.contains(.hasHandle) {
            try skipString()
            if flags.contains(.hasHandleType) { _ = try enumCase(InteractionRecordLayout.handleTypes) }
        }
        if flags.contains(.hasDisplayName) { try skipString() }
        if flags.contains(.hasNameComponents) { _ = try rareRecord(NameComponentsRecord.read) }
        if flags.contains(.hasImage) { _ = try rareRecord(ImageRecord.read) }
        if flags.contains(.hasContactIdentifier) { try skipString() }
        if flags.contains(.hasCustomIdentifier) { try skipString() }
        if flags.contains(.hasAliases) {
            for _ in 0..<(try count()) {
                let hasType = try byte()
                guard hasType <= 1 else { throw input.damaged(at: input.cursor - 1, "an alias starts with \(hasType).") }
                try skipString()
                if hasType == 1 { _ = try enumCase(InteractionRecordLayout.handleTypes) }
            }
        }
        if flags.contains(.hasSuggestionType) { _ = try enumCase(InteractionRecordLayout.suggestionTypes) }
    }
}
