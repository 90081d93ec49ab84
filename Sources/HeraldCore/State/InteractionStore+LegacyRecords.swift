import Foundation
import HeraldProtocol

/// Reads the interactions of binary snapshots written before record chunks: one run of
/// tagged values per interaction, `nil` for an absent member. Herald no longer writes
/// them; snapshots written so are still read (`Tests/HeraldCoreTests` keeps one).
extension InteractionStore {
    mutating func decodeLegacyRecords(from records: inout BinaryUnkeyedDecoding, appCount: Int) throws {
        var inserted = 0
        while !records.isAtEnd {
            let uid = try records.decode(UInt32.self)
            let app = try records.decode(AppNameTable.ID.self)
            let donatedAt = Date(timeIntervalSinceReferenceDate: try records.decode(Double.self))
            guard Int(app) < appCount else { throw records.corrupted("A record names app \(app) of \(appCount).") }
            let identifier = try records.decode(String.self)
            let groupIdentifier = try records.decodeOptional(String.self)
            let direction: InteractionDirection = try records.decodeEnum()
            let date = try records.decodeOptional(Double.self).map(Date.init(timeIntervalSinceReferenceDate:))
            let intent: Intent
            switch try records.decodeEnum() as IntentType {
            case .sendMessage:
                var message = SendMessageIntent(conversationIdentifier: "")
                message.sender = try records.decodePerson()
                message.recipients = try records.decodePeople()
                message.content = try records.decodeOptional(String.self)
                message.speakableGroupName = try records.decodeOptional(String.self)
                message.conversationIdentifier = try records.decode(String.self)
                message.serviceName = try records.decodeOptional(String.self)
                message.outgoingMessageType = try records.decodeOptionalEnum()
                message.groupImage = try records.decodeOptional(NotificationImage.self)
                message.donationMetadata = try records.decodeOptional(DonationMetadata.self)
                intent = .sendMessage(message)
            case .startCall:
                var call = StartCallIntent(contacts: try records.decodePeople() ?? [])
                call.callCapability = try records.decodeOptionalEnum()
                call.destinationType = try records.decodeOptionalEnum()
                call.audioRoute = try records.decodeOptionalEnum()
                call.callRecordToCallBack = try records.decodeOptional(JSONValue.self)
                call.groupImage = try records.decodeOptional(NotificationImage.self)
                intent = .startCall(call)
            }
            let interaction = Interaction(
                identifier: identifier,
                groupIdentifier: groupIdentifier,
                direction: direction,
                date: date,
                intent: intent
            )
            insert(interaction, uid: uid, app: app, donatedAt: donatedAt)
            inserted += 1
        }
        try Self.checkNoKeyTwice(count: count, records: inserted)
    }
}

extension BinaryUnkeyedDecoding {
    mutating func decodeOptional<T: Decodable>(_ type: T.Type) throws -> T? {
        try decodeNil() ? nil : try decode(type)
    }

    mutating func decodeOptional(_ type: String.Type) throws -> String? {
        try decodeNil() ? nil : try decode(type)
    }

    mutating func decodeOptional(_ type: Double.Type) throws -> Double? {
        try decodeNil() ? nil : try decode(type)
    }

    mutating func decodeEnum<T: RawRepresentable<String>>() throws -> T {
        let raw = try decode(String.self)
        guard let value = T(rawValue: raw) else { throw corrupted("\(raw) is not a \(T.self).") }
        return value
    }

    mutating func decodeOptionalEnum<T: RawRepresentable<String>>() throws -> T? {
        try decodeNil() ? nil : try decodeEnum() as T
    }

    /// A count of elements that cannot be larger than the bytes left.
    mutating func decodeCount() throws -> Int {
        let count = try decode(Int.self)
        guard count >= 0, count <= remainingBytes else { throw corrupted("A count of \(count) is out of range.") }
        return count
    }

    mutating func decodeHandle() throws -> PersonHandle {
        PersonHandle(value: try decode(String.self), type: try decodeOptionalEnum())
    }

    mutating func decodePerson() throws -> Person? {
        guard !(try decodeNil()) else { return nil }
        guard try decode(Bool.self) else { throw corrupted("A person starts with true.") }
        var person = Person()
        person.handle = try decodeNil() ? nil : try decodeHandle()
        person.displayName = try decodeOptional(String.self)
        person.nameComponents = try decodeOptional(NameComponents.self)
        person.image = try decodeOptional(NotificationImage.self)
        person.contactIdentifier = try decodeOptional(String.self)
        person.customIdentifier = try decodeOptional(String.self)
        if !(try decodeNil()) {
            let count = try decodeCount()
            var aliases: [PersonHandle] = []
            aliases.reserveCapacity(count)
            for _ in 0..<count { aliases.append(try decodeHandle()) }
            person.aliases = aliases
        }
        person.suggestionType = try decodeOptionalEnum()
        person.isMe = try decodeNil() ? nil : try decode(Bool.self)
        return person
    }

    mutating func decodePeople() throws -> [Person]? {
        guard !(try decodeNil()) else { return nil }
        let count = try decodeCount()
        var people: [Person] = []
        people.reserveCapacity(count)
        for _ in 0..<count {
            guard let person = try decodePerson() else { throw corrupted("A list of people holds a nil.") }
            people.append(person)
        }
        return people
    }
}
