import Foundation
import HeraldCore
import HeraldProtocol

/// Reads what ``InteractionRecordWriter`` wrote, from a range of a snapshot file.
///
/// Every read is bounds-checked against the range, every count against the bytes left,
/// and every flag and enum number against what this build knows: a damaged chunk throws
/// ``SnapshotFileError`` naming the file byte; it never traps.
struct InteractionRecordReader {
    private typealias Flags = InteractionRecordLayout.Flags
    private typealias PersonFlags = InteractionRecordLayout.PersonFlags

    /// How the rarely set members are written: JSON now; a payload of the generic binary
    /// coder in format version 1 (``TaggedPayload`` reads it).
    enum RareMembers {
        case json, tagged
    }

    private var input: PayloadReader
    private let appCount: Int
    private let rareMembers: RareMembers
    private let rareDecoder = JSONDecoder()

    /// Reads the records in `range` of `file`, whose apps number fewer than `appCount`.
    init(file: UnsafeRawBufferPointer, range: Range<Int>, appCount: Int, rareMembers: RareMembers) {
        self.input = PayloadReader(file, range: range)
        self.appCount = appCount
        self.rareMembers = rareMembers
    }

    var isAtEnd: Bool { input.isAtEnd }

    mutating func next() throws(SnapshotFileError) -> HeraldState.StoredRecord {
        let start = input.cursor
        guard let uid = UInt32(exactly: try varint()) else { throw corrupted(at: start, "a record's uid is out of range.") }
        let app = try varint()
        guard app < UInt64(appCount) else { throw corrupted(at: start, "a record names app \(app) of \(appCount).") }
        let donatedAt = Date(timeIntervalSinceReferenceDate: try double())
        let flags = Flags(rawValue: try varint())
        guard Flags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a record has unknown flags.") }
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
        return HeraldState.StoredRecord(uid: uid, app: UInt32(app), donatedAt: donatedAt, interaction: interaction)
    }

    private mutating func people() throws(SnapshotFileError) -> [Person] {
        let count = try self.count()
        var people: [Person] = []
        people.reserveCapacity(count)
        for _ in 0..<count { people.append(try person()) }
        return people
    }

    private mutating func person() throws(SnapshotFileError) -> Person {
        let start = input.cursor
        let flags = PersonFlags(rawValue: try varint())
        guard PersonFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a person has unknown flags.") }
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

    // MARK: Primitives

    private func corrupted(at offset: Int, _ reason: String) -> SnapshotFileError {
        input.damaged(at: offset, reason)
    }

    private mutating func byte() throws(SnapshotFileError) -> UInt8 { try input.byte() }
    private mutating func varint() throws(SnapshotFileError) -> UInt64 { try input.varint() }
    private mutating func count() throws(SnapshotFileError) -> Int { try input.count() }
    private mutating func double() throws(SnapshotFileError) -> Double { try input.double() }
    private mutating func string() throws(SnapshotFileError) -> String { try input.string() }

    private mutating func enumCase<T>(_ table: [T]) throws(SnapshotFileError) -> T {
        let code = try byte()
        guard Int(code) < table.count else { throw corrupted(at: input.cursor - 1, "unknown \(T.self) number \(code).") }
        return table[Int(code)]
    }

    /// A rarely set member: JSON, or in format version 1 a generic binary payload, read
    /// as JSON by ``TaggedPayload``.
    private mutating func rare<T: Decodable>(_ type: T.Type) throws(SnapshotFileError) -> T {
        let start = input.cursor
        let range = try input.lengthPrefixed()
        let member = UnsafeRawBufferPointer(rebasing: input.bytes[range])
        let json: Data
        switch rareMembers {
        case .json:
            json = Data(member)
        case .tagged:
            json = try TaggedPayload.json(of: member, fileOffset: range.lowerBound)
        }
        do {
            return try rareDecoder.decode(type, from: json)
        } catch {
            throw corrupted(at: start, "a \(T.self) does not decode: \(error)")
        }
    }
}
