import Foundation
import HeraldProtocol

/// The interactions in a binary snapshot, written by hand: one flat run of values per
/// interaction, in a fixed order, `nil` for an absent member.
///
/// Through `Codable` each interaction costs some forty generic container calls (about
/// 17 µs to encode); this takes about 2 µs. The rarely set members (images, name
/// components, donation metadata, a call record) still go through `Codable`.
extension InteractionStore {
    func encodeRecords(into records: inout BinaryUnkeyedEncoding) throws {
        try forEach { key, stored in
            let interaction = stored.interaction
            records.encode(key.uid)
            records.encode(key.app)
            records.encode(stored.donatedAt.timeIntervalSinceReferenceDate)
            records.encode(key.identifier)
            records.encodeOptional(interaction.groupIdentifier)
            records.encode(interaction.direction.rawValue)
            records.encodeOptional(interaction.date?.timeIntervalSinceReferenceDate)
            switch interaction.intent {
            case .sendMessage(let intent):
                records.encode(IntentType.sendMessage.rawValue)
                try records.encodePerson(intent.sender)
                try records.encodePeople(intent.recipients)
                records.encodeOptional(intent.content)
                records.encodeOptional(intent.speakableGroupName)
                records.encode(intent.conversationIdentifier)
                records.encodeOptional(intent.serviceName)
                records.encodeOptional(intent.outgoingMessageType?.rawValue)
                try records.encodeOptional(intent.groupImage)
                try records.encodeOptional(intent.donationMetadata)
            case .startCall(let intent):
                records.encode(IntentType.startCall.rawValue)
                try records.encodePeople(intent.contacts)
                records.encodeOptional(intent.callCapability?.rawValue)
                records.encodeOptional(intent.destinationType?.rawValue)
                records.encodeOptional(intent.audioRoute?.rawValue)
                try records.encodeOptional(intent.callRecordToCallBack)
                try records.encodeOptional(intent.groupImage)
            }
        }
    }

    mutating func decodeRecords(from records: inout BinaryUnkeyedDecoding, appCount: Int) throws {
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
        }
    }
}

extension BinaryUnkeyedEncoding {
    mutating func encodeOptional(_ value: String?) {
        if let value { encode(value) } else { encodeNil() }
    }

    mutating func encodeOptional(_ value: Double?) {
        if let value { encode(value) } else { encodeNil() }
    }

    mutating func encodeOptional<T: Encodable>(_ value: T?) throws {
        if let value { try encode(value) } else { encodeNil() }
    }

    /// A handle: its value, then its type or nil.
    mutating func encodeHandle(_ handle: PersonHandle) {
        encode(handle.value)
        encodeOptional(handle.type?.rawValue)
    }

    /// Nil, or `true` and the person's members.
    mutating func encodePerson(_ person: Person?) throws {
        guard let person else { return encodeNil() }
        encode(true)
        if let handle = person.handle { encodeHandle(handle) } else { encodeNil() }
        encodeOptional(person.displayName)
        try encodeOptional(person.nameComponents)
        try encodeOptional(person.image)
        encodeOptional(person.contactIdentifier)
        encodeOptional(person.customIdentifier)
        if let aliases = person.aliases {
            encode(aliases.count)
            for alias in aliases { encodeHandle(alias) }
        } else {
            encodeNil()
        }
        encodeOptional(person.suggestionType?.rawValue)
        if let isMe = person.isMe { encode(isMe) } else { encodeNil() }
    }

    /// Nil, or the count and each person.
    mutating func encodePeople(_ people: [Person]?) throws {
        guard let people else { return encodeNil() }
        encode(people.count)
        for person in people { try encodePerson(person) }
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
