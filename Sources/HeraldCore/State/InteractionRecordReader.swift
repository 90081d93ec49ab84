import Foundation
import HeraldProtocol

/// One record as read from a chunk, before it is inserted in the store.
struct InteractionRecord {
    var uid: UInt32
    var app: AppNameTable.ID
    var donatedAt: Date
    var interaction: Interaction
}

/// Reads what ``InteractionRecordWriter`` wrote, from a range of a snapshot's payload.
///
/// Every read is bounds-checked against the range, every count against the bytes left,
/// and every flag and enum number against what this build knows: a damaged chunk throws
/// a `DecodingError` naming the payload byte; it never traps.
struct InteractionRecordReader {
    private typealias Flags = InteractionRecordLayout.Flags
    private typealias PersonFlags = InteractionRecordLayout.PersonFlags

    private let payload: UnsafeRawBufferPointer
    private let end: Int
    private var cursor: Int
    private let appCount: Int

    /// Reads the records in `range` of `payload`, whose apps number fewer than `appCount`.
    init(payload: UnsafeRawBufferPointer, range: Range<Int>, appCount: Int) {
        precondition(range.lowerBound >= 0 && range.upperBound <= payload.count)
        self.payload = payload
        self.cursor = range.lowerBound
        self.end = range.upperBound
        self.appCount = appCount
    }

    var isAtEnd: Bool { cursor >= end }

    mutating func next() throws -> InteractionRecord {
        let start = cursor
        guard let uid = UInt32(exactly: try varint()) else { throw corrupted(at: start, "A record's uid is out of range.") }
        let app = try varint()
        guard app < UInt64(appCount) else { throw corrupted(at: start, "A record names app \(app) of \(appCount).") }
        let donatedAt = Date(timeIntervalSinceReferenceDate: try double())
        let flags = Flags(rawValue: try varint())
        guard Flags.known.isSuperset(of: flags) else { throw corrupted(at: start, "A record has unknown flags.") }
        let identifier = try string()
        let groupIdentifier = flags.contains(.hasGroupIdentifier) ? try string() : nil
        let date = flags.contains(.hasDate) ? Date(timeIntervalSinceReferenceDate: try double()) : nil

        let intent: Intent
        if flags.contains(.startCall) {
            var call = StartCallIntent(contacts: try people())
            if flags.contains(.hasCallCapability) { call.callCapability = try enumCase(InteractionRecordLayout.callCapabilities) }
            if flags.contains(.hasDestinationType) { call.destinationType = try enumCase(InteractionRecordLayout.destinationTypes) }
            if flags.contains(.hasAudioRoute) { call.audioRoute = try enumCase(InteractionRecordLayout.audioRoutes) }
            if flags.contains(.hasCallRecordToCallBack) { call.callRecordToCallBack = try rare(JSONValue.self) }
            if flags.contains(.hasCallGroupImage) { call.groupImage = try rare(NotificationImage.self) }
            intent = .startCall(call)
        } else {
            // Read in record order, then built in one initializer call: no copy of a
            // half-built intent.
            let sender = flags.contains(.hasSender) ? try person() : nil
            let recipients = flags.contains(.hasRecipients) ? try people() : nil
            let content = flags.contains(.hasContent) ? try string() : nil
            let speakableGroupName = flags.contains(.hasSpeakableGroupName) ? try string() : nil
            let conversationIdentifier = try string()
            let serviceName = flags.contains(.hasServiceName) ? try string() : nil
            let outgoingMessageType =
                flags.contains(.hasOutgoingMessageType)
                ? try enumCase(InteractionRecordLayout.outgoingMessageTypes) : nil
            let groupImage = flags.contains(.hasMessageGroupImage) ? try rare(NotificationImage.self) : nil
            let donationMetadata = flags.contains(.hasDonationMetadata) ? try rare(DonationMetadata.self) : nil
            intent = .sendMessage(
                SendMessageIntent(
                    sender: sender,
                    recipients: recipients,
                    content: content,
                    speakableGroupName: speakableGroupName,
                    conversationIdentifier: conversationIdentifier,
                    serviceName: serviceName,
                    outgoingMessageType: outgoingMessageType,
                    groupImage: groupImage,
                    donationMetadata: donationMetadata
                )
            )
        }
        let interaction = Interaction(
            identifier: identifier,
            groupIdentifier: groupIdentifier,
            direction: flags.contains(.outgoing) ? .outgoing : .incoming,
            date: date,
            intent: intent
        )
        return InteractionRecord(uid: uid, app: AppNameTable.ID(app), donatedAt: donatedAt, interaction: interaction)
    }

    private mutating func people() throws -> [Person] {
        let count = try self.count()
        var people: [Person] = []
        people.reserveCapacity(count)
        for _ in 0..<count { people.append(try person()) }
        return people
    }

    private mutating func person() throws -> Person {
        let start = cursor
        let flags = PersonFlags(rawValue: try varint())
        guard PersonFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "A person has unknown flags.") }
        var person = Person()
        if flags.contains(.hasHandle) {
            let value = try string()
            let type = flags.contains(.hasHandleType) ? try enumCase(InteractionRecordLayout.handleTypes) : nil
            person.handle = PersonHandle(value: value, type: type)
        }
        if flags.contains(.hasDisplayName) { person.displayName = try string() }
        if flags.contains(.hasNameComponents) { person.nameComponents = try rare(NameComponents.self) }
        if flags.contains(.hasImage) { person.image = try rare(NotificationImage.self) }
        if flags.contains(.hasContactIdentifier) { person.contactIdentifier = try string() }
        if flags.contains(.hasCustomIdentifier) { person.customIdentifier = try string() }
        if flags.contains(.hasAliases) {
            let count = try self.count()
            var aliases: [PersonHandle] = []
            aliases.reserveCapacity(count)
            for _ in 0..<count {
                let hasType = try byte()
                guard hasType <= 1 else { throw corrupted(at: cursor - 1, "An alias starts with \(hasType).") }
                let value = try string()
                aliases.append(PersonHandle(value: value, type: hasType == 1 ? try enumCase(InteractionRecordLayout.handleTypes) : nil))
            }
            person.aliases = aliases
        }
        if flags.contains(.hasSuggestionType) { person.suggestionType = try enumCase(InteractionRecordLayout.suggestionTypes) }
        if flags.contains(.hasIsMe) { person.isMe = flags.contains(.isMe) }
        return person
    }

    // MARK: Primitives

    func corrupted(at offset: Int, _ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "At payload byte \(offset): \(reason)"))
    }

    private mutating func byte() throws -> UInt8 {
        guard cursor < end else { throw corrupted(at: cursor, "A record runs past its chunk.") }
        defer { cursor += 1 }
        return payload[cursor]
    }

    private mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw corrupted(at: cursor - 1, "A number is longer than 64 bits.") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count of elements, each at least a byte long, so never more than the bytes left.
    private mutating func count() throws -> Int {
        let start = cursor
        let count = try varint()
        guard count <= UInt64(end - cursor) else { throw corrupted(at: start, "A count of \(count) is out of range.") }
        return Int(count)
    }

    private mutating func double() throws -> Double {
        guard end - cursor >= 8 else { throw corrupted(at: cursor, "A record runs past its chunk.") }
        defer { cursor += 8 }
        return Double(bitPattern: UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)))
    }

    /// The next `length`-prefixed run of bytes.
    private mutating func lengthPrefixed() throws -> UnsafeRawBufferPointer {
        let start = cursor
        let length = try varint()
        guard length <= UInt64(end - cursor) else { throw corrupted(at: start, "A value runs past its chunk.") }
        defer { cursor += Int(length) }
        return UnsafeRawBufferPointer(rebasing: payload[cursor..<(cursor + Int(length))])
    }

    private mutating func string() throws -> String {
        String(decoding: try lengthPrefixed(), as: UTF8.self)
    }

    private mutating func enumCase<T>(_ table: [T]) throws -> T {
        let code = try byte()
        guard Int(code) < table.count else { throw corrupted(at: cursor - 1, "Unknown \(T.self) number \(code).") }
        return table[Int(code)]
    }

    /// A member written through the general binary encoder.
    private mutating func rare<T: Decodable>(_ type: T.Type) throws -> T {
        let start = cursor
        let bytes = try lengthPrefixed()
        do {
            return try BinaryStateDecoder().decode(type, from: [UInt8](bytes))
        } catch {
            throw corrupted(at: start, "A \(T.self) does not decode: \(error)")
        }
    }
}
