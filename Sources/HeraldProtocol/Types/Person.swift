/// A participant of an interaction: the sender or a recipient of a message, a contact of
/// a call, or a person a Focus allows — the counterpart of SiriKit's `INPerson`.
///
/// A person needs a `handle` or a `displayName`. The current user is never one of an
/// interaction's people: an `isMe: true` person is error 1003 ("never include the current
/// user", as the seeds say).
package struct Person: Codable, Sendable, Hashable {
    package var handle: PersonHandle?
    package var displayName: String?
    package var nameComponents: NameComponents?
    package var image: NotificationImage?
    /// The identifier of the person in the user's contacts.
    package var contactIdentifier: String?
    /// The app's own identifier for the person.
    package var customIdentifier: String?
    /// Other handles of the same person; matched like `handle`.
    package var aliases: [PersonHandle]?
    package var suggestionType: PersonSuggestionType?
    package var isMe: Bool?

    package init(
        handle: PersonHandle? = nil,
        displayName: String? = nil,
        nameComponents: NameComponents? = nil,
        image: NotificationImage? = nil,
        contactIdentifier: String? = nil,
        customIdentifier: String? = nil,
        aliases: [PersonHandle]? = nil,
        suggestionType: PersonSuggestionType? = nil,
        isMe: Bool? = nil
    ) {
        self.handle = handle
        self.displayName = displayName
        self.nameComponents = nameComponents
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        self.aliases = aliases
        self.suggestionType = suggestionType
        self.isMe = isMe
    }
}

/// How to reach a person: an email address, a phone number, or another value the app
/// understands (`INPersonHandle`).
package struct PersonHandle: Codable, Sendable, Hashable {
    package var value: String
    /// Absent means `unknown`.
    package var type: PersonHandleType?

    package init(value: String, type: PersonHandleType? = nil) {
        self.value = value
        self.type = type
    }
}

/// The kind of a handle's value.
package enum PersonHandleType: String, JSONEnum, Hashable {
    case unknown
    case emailAddress
    case phoneNumber
}

/// The parts of a person's name (`PersonNameComponents`).
package struct NameComponents: Codable, Sendable, Hashable {
    package var givenName: String?
    package var familyName: String?
    package var nickname: String?

    package init(givenName: String? = nil, familyName: String? = nil, nickname: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
    }
}

/// How a person's handle may be suggested (`INPersonSuggestionType`).
package enum PersonSuggestionType: String, JSONEnum, Hashable {
    case none
    case socialProfile
    case instantMessageAddress
}

extension Person: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            Person(
                handle: try members.optional("handle"),
                displayName: try members.optional("displayName"),
                nameComponents: try members.optional("nameComponents"),
                image: try members.optional("image"),
                contactIdentifier: try members.optional("contactIdentifier"),
                customIdentifier: try members.optional("customIdentifier"),
                aliases: try members.optional("aliases"),
                suggestionType: try members.optional("suggestionType"),
                isMe: try members.optional("isMe")
            )
        }
    }
}

extension PersonHandle: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            PersonHandle(value: try members.required("value"), type: try members.optional("type"))
        }
    }
}

extension NameComponents: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NameComponents(
                givenName: try members.optional("givenName"),
                familyName: try members.optional("familyName"),
                nickname: try members.optional("nickname")
            )
        }
    }
}

extension Person: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("handle", handle)
        members.add("displayName", displayName)
        members.add("nameComponents", nameComponents)
        members.add("image", image)
        members.add("contactIdentifier", contactIdentifier)
        members.add("customIdentifier", customIdentifier)
        members.add("aliases", aliases)
        members.add("suggestionType", suggestionType)
        members.add("isMe", isMe)
    }
}

extension PersonHandle: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("value", value)
        members.add("type", type)
    }
}

extension NameComponents: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("givenName", givenName)
        members.add("familyName", familyName)
        members.add("nickname", nickname)
    }
}
