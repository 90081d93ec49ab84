import Foundation
import HeraldCore
import HeraldProtocol

/// Appends stored interactions to a byte buffer in ``InteractionRecordLayout``.
///
/// A member added to `Interaction` (or to a person or an intent) is written here, read in
/// ``InteractionRecordReader``, and given a flag in ``InteractionRecordLayout``: this
/// file's neighbours, and no other.
struct InteractionRecordWriter {
    private typealias Flags = InteractionRecordLayout.Flags
    private typealias PersonFlags = InteractionRecordLayout.PersonFlags

    private var bytes: [UInt8] = []
    /// For the rarely set members; one per writer, so not one per member. Members sorted,
    /// so that equal records are written equally.
    private let rareEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Runs `body` with a writer that appends to `buffer` in place: the buffer moves into
    /// the writer and back, so what it already holds is never copied.
    static func appending(to buffer: inout [UInt8], _ body: (inout InteractionRecordWriter) throws -> Void) rethrows {
        var writer = InteractionRecordWriter()
        swap(&writer.bytes, &buffer)
        defer { swap(&writer.bytes, &buffer) }
        try body(&writer)
    }

    mutating func append(_ record: HeraldState.StoredRecord) throws {
        let interaction = record.interaction
        appendVarint(UInt64(record.uid))
        appendVarint(UInt64(record.app))
        appendDouble(record.donatedAt.timeIntervalSinceReferenceDate)
        // The flags are known once every member is written: their place is kept and filled in.
        let flagsAt = reserveFlags()
        var flags: Flags = []
        appendString(interaction.identifier ?? "")
        if let group = interaction.groupIdentifier {
            flags.insert(.hasGroupIdentifier)
            appendString(group)
        }
        if let date = interaction.date {
            flags.insert(.hasDate)
            appendDouble(date.timeIntervalSinceReferenceDate)
        }
        if interaction.direction == .outgoing { flags.insert(.outgoing) }

        switch interaction.intent {
        case .sendMessage(let message):
            if let sender = message.sender {
                flags.insert(.hasSender)
                try appendPerson(sender)
            }
            if let recipients = message.recipients {
                flags.insert(.hasRecipients)
                try appendPeople(recipients)
            }
            if let content = message.content {
                flags.insert(.hasContent)
                appendString(content)
            }
            if let name = message.speakableGroupName {
                flags.insert(.hasSpeakableGroupName)
                appendString(name)
            }
            appendString(message.conversationIdentifier)
            if let service = message.serviceName {
                flags.insert(.hasServiceName)
                appendString(service)
            }
            if let type = message.outgoingMessageType {
                flags.insert(.hasOutgoingMessageType)
                appendCase(type, of: InteractionRecordLayout.outgoingMessageTypes)
            }
            if let image = message.groupImage {
                flags.insert(.hasMessageGroupImage)
                try appendRare(image)
            }
            if let metadata = message.donationMetadata {
                flags.insert(.hasDonationMetadata)
                try appendRare(metadata)
            }
        case .startCall(let call):
            flags.insert(.startCall)
            try appendPeople(call.contacts)
            if let capability = call.callCapability {
                flags.insert(.hasCallCapability)
                appendCase(capability, of: InteractionRecordLayout.callCapabilities)
            }
            if let destination = call.destinationType {
                flags.insert(.hasDestinationType)
                appendCase(destination, of: InteractionRecordLayout.destinationTypes)
            }
            if let route = call.audioRoute {
                flags.insert(.hasAudioRoute)
                appendCase(route, of: InteractionRecordLayout.audioRoutes)
            }
            if let record = call.callRecordToCallBack {
                flags.insert(.hasCallRecordToCallBack)
                try appendRare(record)
            }
            if let image = call.groupImage {
                flags.insert(.hasCallGroupImage)
                try appendRare(image)
            }
        }
        fillFlags(flags.rawValue, at: flagsAt)
    }

    private mutating func appendPeople(_ people: [Person]) throws {
        appendVarint(UInt64(people.count))
        for person in people { try appendPerson(person) }
    }

    private mutating func appendPerson(_ person: Person) throws {
        let flagsAt = reserveFlags()
        var flags: PersonFlags = []
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
            try appendRare(components)
        }
        if let image = person.image {
            flags.insert(.hasImage)
            try appendRare(image)
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
            for alias in aliases {
                bytes.append(alias.type == nil ? 0 : 1)
                appendString(alias.value)
                if let type = alias.type { appendCase(type, of: InteractionRecordLayout.handleTypes) }
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

    // MARK: Primitives

    /// Keeps the place of a record's or a person's flags: a varint of exactly
    /// ``InteractionRecordLayout/flagsWidth`` bytes, filled in by `fillFlags`.
    private mutating func reserveFlags() -> Int {
        let at = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: InteractionRecordLayout.flagsWidth))
        return at
    }

    /// Writes `flags` as a varint padded to ``InteractionRecordLayout/flagsWidth`` bytes:
    /// every byte but the last has its continuation bit set, so any varint reader reads it.
    private mutating func fillFlags(_ flags: UInt64, at offset: Int) {
        var value = flags
        for index in 0..<InteractionRecordLayout.flagsWidth {
            let last = index == InteractionRecordLayout.flagsWidth - 1
            bytes[offset + index] = UInt8(truncatingIfNeeded: value & 0x7F) | (last ? 0 : 0x80)
            value >>= 7
        }
    }

    private mutating func appendVarint(_ value: UInt64) {
        bytes.appendVarint(value)
    }

    private mutating func appendDouble(_ value: Double) {
        bytes.appendDouble(value)
    }

    private mutating func appendString(_ value: String) {
        bytes.appendString(value)
    }

    private mutating func appendCase<T: Equatable>(_ value: T, of table: [T]) {
        guard let index = table.firstIndex(of: value) else {
            preconditionFailure("\(value) is missing from its table in InteractionRecordLayout.")
        }
        bytes.append(UInt8(index))
    }

    /// A member that is rarely set: its JSON, through Foundation's encoder.
    private mutating func appendRare(_ value: some Encodable) throws {
        bytes.appendLengthPrefixed(try rareEncoder.encode(value))
    }
}
