import HeraldProtocol

/// A person as the snapshot keeps it in JSON (a notification's sender and recipients, a
/// Focus's allowed people), with the small values it holds: handles, name components,
/// images. The interaction records keep people in bytes of their own
/// (`InteractionRecord+Person.swift`) and the rarely set members as these records' JSON.
package enum PersonRecord {
    package static func json(_ person: Person, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 9)
        members.add("aliases", person.aliases, HandleRecord.json)
        members.add("contactIdentifier", person.contactIdentifier)
        members.add("customIdentifier", person.customIdentifier)
        members.add("displayName", person.displayName)
        members.add("handle", person.handle.map { HandleRecord.json($0, style) })
        members.add("image", person.image.map { ImageRecord.json($0, style) })
        members.add("isMe", person.isMe)
        members.add("nameComponents", person.nameComponents.map { NameComponentsRecord.json($0, style) })
        members.add("suggestionType", person.suggestionType)
        return members.value
    }

    package static func read(_ record: RecordReader) throws(RecordDamage) -> Person {
        Person(
            handle: try record.optionalRecord("handle", HandleRecord.read),
            displayName: try record.optionalString("displayName"),
            nameComponents: try record.optionalRecord("nameComponents", NameComponentsRecord.read),
            image: try record.optionalRecord("image", ImageRecord.read),
            contactIdentifier: try record.optionalString("contactIdentifier"),
            customIdentifier: try record.optionalString("customIdentifier"),
            aliases: try record.optionalRecords("aliases", HandleRecord.read),
            suggestionType: try record.optionalCase("suggestionType"),
            isMe: try record.optionalBool("isMe")
        )
    }
}

package enum HandleRecord {
    package static func json(_ handle: PersonHandle, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 2)
        members.add("type", handle.type)
        members.add("value", handle.value)
        return members.value
    }

    package static func read(_ record: RecordReader) throws(RecordDamage) -> PersonHandle {
        PersonHandle(value: try record.string("value"), type: try record.optionalCase("type"))
    }
}

package enum NameComponentsRecord {
    package static func json(_ name: NameComponents, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 3)
        members.add("familyName", name.familyName)
        members.add("givenName", name.givenName)
        members.add("nickname", name.nickname)
        return members.value
    }

    package static func read(_ record: RecordReader) throws(RecordDamage) -> NameComponents {
        NameComponents(
            givenName: try record.optionalString("givenName"),
            familyName: try record.optionalString("familyName"),
            nickname: try record.optionalString("nickname")
        )
    }
}

package enum ImageRecord {
    package static func json(_ image: NotificationImage, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 3)
        members.add("data", image.data)
        members.add("mimeType", image.mimeType)
        members.add("url", image.url)
        return members.value
    }

    package static func read(_ record: RecordReader) throws(RecordDamage) -> NotificationImage {
        NotificationImage(url: try record.optionalString("url"), data: try record.optionalString("data"), mimeType: try record.optionalString("mimeType"))
    }
}

package enum DonationMetadataRecord {
    package static func json(_ metadata: DonationMetadata, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 4)
        members.add("isReplyToCurrentUser", metadata.isReplyToCurrentUser)
        members.add("mentionsCurrentUser", metadata.mentionsCurrentUser)
        members.add("notifyRecipientAnyway", metadata.notifyRecipientAnyway)
        members.add("recipientCount", metadata.recipientCount)
        return members.value
    }

    package static func read(_ record: RecordReader) throws(RecordDamage) -> DonationMetadata {
        DonationMetadata(
            recipientCount: try record.optionalInteger("recipientCount"),
            mentionsCurrentUser: try record.optionalBool("mentionsCurrentUser"),
            isReplyToCurrentUser: try record.optionalBool("isReplyToCurrentUser"),
            notifyRecipientAnyway: try record.optionalBool("notifyRecipientAnyway")
        )
    }
}
