import FoundationEssentials
import HeraldProtocol

/// One stored interaction in a record chunk: which members it has (``InteractionRecordFlags``),
/// how ``InteractionRecordWriter`` writes them and how ``InteractionRecordReader`` reads them
/// back.
///
/// A record is, in order:
/// - `uid`, `app` (varints), `donatedAt` (8 bytes: the bit pattern of its
///   `timeIntervalSinceReferenceDate`), the record's flags (a varint padded to
///   ``InteractionRecordLayout/flagsWidth`` bytes);
/// - `identifier`, then `groupIdentifier` and `date` when their flags are set;
/// - a message: `sender` and `recipients` (a varint count of people) when set, `content`,
///   `speakableGroupName` when set, `conversationIdentifier`, then `serviceName`,
///   `outgoingMessageType`, `groupImage` and `donationMetadata` when set;
/// - a call: `contacts` (a count of people), then `callCapability`, `destinationType`,
///   `audioRoute`, `callRecordToCallBack` and `groupImage` when set.
///
/// A member added to `Interaction` or to an intent is a flag, a write, a read and a check
/// (``InteractionRecordReader/checkInteraction()``, which walks the record as the read does
/// without building it), all in this file (a person's members are
/// `InteractionRecord+Person.swift`'s). Flags and enum numbers are only ever appended:
/// snapshots depend on them.
package struct InteractionRecordFlags: OptionSet {
    package let rawValue: UInt64

    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static let hasGroupIdentifier = InteractionRecordFlags(rawValue: 1 << 0)
    package static let hasDate = InteractionRecordFlags(rawValue: 1 << 1)
    package static let outgoing = InteractionRecordFlags(rawValue: 1 << 2)
    package static let startCall = InteractionRecordFlags(rawValue: 1 << 3)
    // A message's members.
    package static let hasSender = InteractionRecordFlags(rawValue: 1 << 4)
    package static let hasRecipients = InteractionRecordFlags(rawValue: 1 << 5)
    package static let hasContent = InteractionRecordFlags(rawValue: 1 << 6)
    package static let hasSpeakableGroupName = InteractionRecordFlags(rawValue: 1 << 7)
    package static let hasServiceName = InteractionRecordFlags(rawValue: 1 << 8)
    package static let hasOutgoingMessageType = InteractionRecordFlags(rawValue: 1 << 9)
    package static let hasMessageGroupImage = InteractionRecordFlags(rawValue: 1 << 10)
    package static let hasDonationMetadata = InteractionRecordFlags(rawValue: 1 << 11)
    // A call's members.
    package static let hasCallCapability = InteractionRecordFlags(rawValue: 1 << 12)
    package static let hasDestinationType = InteractionRecordFlags(rawValue: 1 << 13)
    package static let hasAudioRoute = InteractionRecordFlags(rawValue: 1 << 14)
    package static let hasCallRecordToCallBack = InteractionRecordFlags(rawValue: 1 << 15)
    package static let hasCallGroupImage = InteractionRecordFlags(rawValue: 1 << 16)

    /// Every bit this build knows; a record with another is refused as damaged.
    package static let known = InteractionRecordFlags(rawValue: (1 << 17) - 1)
}

extension InteractionRecordWriter {
    /// A whole record: the donor's uid, the app's number, when it was donated, then the
    /// interaction already encoded (``EncodedInteraction``), its bytes copied as they are.
    package mutating func append(uid: UInt32, app: UInt32, donatedAt: Date, record: EncodedInteraction) {
        appendVarint(UInt64(uid))
        appendVarint(UInt64(app))
        appendDouble(donatedAt.timeIntervalSinceReferenceDate)
        bytes.append(contentsOf: record.bytes)
    }

    /// The interaction's part of a record, from its flags on: what the change log's
    /// donation records hold too (``ChangeRecord``).
    package mutating func appendInteraction(_ interaction: Interaction) {
        // The flags are known once every member is written: their place is kept and filled in.
        let flagsAt = reserveFlags()
        var flags: InteractionRecordFlags = []
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
                appendPerson(sender)
            }
            if let recipients = message.recipients {
                flags.insert(.hasRecipients)
                appendPeople(recipients)
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
                appendRare(ImageRecord.json(image, .snapshot))
            }
            if let metadata = message.donationMetadata {
                flags.insert(.hasDonationMetadata)
                appendRare(DonationMetadataRecord.json(metadata, .snapshot))
            }
        case .startCall(let call):
            flags.insert(.startCall)
            appendPeople(call.contacts)
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
                appendRare(ClientJSON.pairs(record))
            }
            if let image = call.groupImage {
                flags.insert(.hasCallGroupImage)
                appendRare(ImageRecord.json(image, .snapshot))
            }
        }
        fillFlags(flags.rawValue, at: flagsAt)
    }
}

extension InteractionRecordReader {
    package mutating func next() throws(SnapshotFileError) -> HeraldState.StoredRecord {
        let start = input.cursor
        guard let uid = UInt32(exactly: try varint()) else { throw corrupted(at: start, "a record's uid is out of range.") }
        let app = try varint()
        guard app < UInt64(appCount) else { throw corrupted(at: start, "a record names app \(app) of \(appCount).") }
        let donatedAt = Date(timeIntervalSinceReferenceDate: try double())
        return HeraldState.StoredRecord(uid: uid, app: UInt32(app), donatedAt: donatedAt, record: try EncodedInteraction(reading: &self))
    }

    /// The interaction's part of a record, from its flags on (``appendInteraction(_:)``).
    package mutating func interaction() throws(SnapshotFileError) -> Interaction {
        let start = input.cursor
        let flags = InteractionRecordFlags(rawValue: try varint())
        guard InteractionRecordFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a record has unknown flags.") }
        let identifier = try string()
        let groupIdentifier = flags.contains(.hasGroupIdentifier) ? try string() : nil
        let date = flags.contains(.hasDate) ? Date(timeIntervalSinceReferenceDate: try double()) : nil

        let intent: Intent
        if flags.contains(.startCall) {
            var call = StartCallIntent(contacts: try people())
            if flags.contains(.hasCallCapability) { call.callCapability = try enumCase(InteractionRecordLayout.callCapabilities) }
            if flags.contains(.hasDestinationType) { call.destinationType = try enumCase(InteractionRecordLayout.destinationTypes) }
            if flags.contains(.hasAudioRoute) { call.audioRoute = try enumCase(InteractionRecordLayout.audioRoutes) }
            if flags.contains(.hasCallRecordToCallBack) { call.callRecordToCallBack = try rare(ClientJSON.read) }
            if flags.contains(.hasCallGroupImage) { call.groupImage = try rareRecord(ImageRecord.read) }
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
            let groupImage = flags.contains(.hasMessageGroupImage) ? try rareRecord(ImageRecord.read) : nil
            let donationMetadata = flags.contains(.hasDonationMetadata) ? try rareRecord(DonationMetadataRecord.read) : nil
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
        return Interaction(
            identifier: identifier,
            groupIdentifier: groupIdentifier,
            direction: flags.contains(.outgoing) ? .outgoing : .incoming,
            date: date,
            intent: intent
        )
    }
}

extension InteractionRecordReader {
    /// Checks the interaction's part of a record as ``interaction()`` reads it — every
    /// bound, flag, count, enum number and rare member, in the same order, with the same
    /// errors at the same bytes — without building it: what a record kept as its bytes
    /// needs (``EncodedInteraction/init(reading:)``), at a restart a million times.
    mutating func checkInteraction() throws(SnapshotFileError) {
        let start = input.cursor
        let flags = InteractionRecordFlags(rawValue: try varint())
        guard InteractionRecordFlags.known.isSuperset(of: flags) else { throw corrupted(at: start, "a record has unknown flags.") }
        try skipString()
        if flags.contains(.hasGroupIdentifier) { try skipString() }
        if flags.contains(.hasDate) { _ = try double() }

        if flags.contains(.startCall) {
            try checkPeople()
            if flags.contains(.hasCallCapability) { _ = try enumCase(InteractionRecordLayout.callCapabilities) }
            if flags.contains(.hasDestinationType) { _ = try enumCase(InteractionRecordLayout.destinationTypes) }
            if flags.contains(.hasAudioRoute) { _ = try enumCase(InteractionRecordLayout.audioRoutes) }
            if flags.contains(.hasCallRecordToCallBack) { _ = try rare(ClientJSON.read) }
            if flags.contains(.hasCallGroupImage) { _ = try rareRecord(ImageRecord.read) }
        } else {
            if flags.contains(.hasSender) { try checkPerson() }
            if flags.contains(.hasRecipients) { try checkPeople() }
            if flags.contains(.hasContent) { try skipString() }
            if flags.contains(.hasSpeakableGroupName) { try skipString() }
            try skipString()
            if flags.contains(.hasServiceName) { try skipString() }
            if flags.contains(.hasOutgoingMessageType) { _ = try enumCase(InteractionRecordLayout.outgoingMessageTypes) }
            if flags.contains(.hasMessageGroupImage) { _ = try rareRecord(ImageRecord.read) }
            if flags.contains(.hasDonationMetadata) { _ = try rareRecord(DonationMetadataRecord.read) }
        }
    }
}
