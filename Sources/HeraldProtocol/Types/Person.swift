/// A participant of an interaction: the sender or a recipient of a message, a contact of
/// a call, or a person a Focus allows — the counterpart of SiriKit's `INPerson`.
///
/// A person needs a `handle` or a `displayName`. The current user is never one of an
/// interaction's people: an `isMe: true` person is error 1003 ("never include the current
/// user", as the seeds say).
public struct Person: Codable, Sendable, Hashable {
    public var handle: PersonHandle?
    public var displayName: String?
    public var nameComponents: NameComponents?
    public var image: NotificationImage?
    /// The identifier of the person in the user's contacts.
    public var contactIdentifier: String?
    /// The app's own identifier for the person.
    public var customIdentifier: String?
    /// Other handles of the same person; matched like `handle`.
    public var aliases: [PersonHandle]?
    public var suggestionType: PersonSuggestionType?
    public var isMe: Bool?

    public init(
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
public struct PersonHandle: Codable, Sendable, Hashable {
    public var value: String
    /// Absent means `unknown`.
    public var type: PersonHandleType?

    public init(value: String, type: PersonHandleType? = nil) {
        self.value = value
        self.type = type
    }
}

/// The kind of a handle's value.
public enum PersonHandleType: String, JSONEnum, Hashable {
    case unknown
    case emailAddress
    case phoneNumber
}

/// The parts of a person's name (`PersonNameComponents`).
public struct NameComponents: Codable, Sendable, Hashable {
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?

    public init(givenName: String? = nil, familyName: String? = nil, nickname: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
    }
}

/// How a person's handle may be suggested (`INPersonSuggestionType`).
public enum PersonSuggestionType: String, JSONEnum, Hashable {
    case none
    case socialProfile
    case instantMessageAddress
}

extension Person: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
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
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            PersonHandle(value: try members.required("value"), type: try members.optional("type"))
        }
    }
}

extension NameComponents: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NameComponents(
                givenName: try members.optional("givenName"),
                familyName: try members.optional("familyName"),
                nickname: try members.optional("nickname")
            )
        }
    }
}
