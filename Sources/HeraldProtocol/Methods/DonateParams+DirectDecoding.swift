import Foundation

// `donate` is Herald's hottest method, and `Decodable` was a quarter of its CPU time: its
// params, and every type they are made of, read themselves directly from the parsed JSON.
// Each initializer lists the members its synthesized `init(from:)` decodes, `required` for
// `decode` and `optional` for `decodeIfPresent`; anything else it leaves to `Decodable`
// (see `JSONDirectDecodable`). `DirectDecodingTests` checks each against `Decodable`.

extension DonateParams: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(app: try object.required("app"), interaction: try object.required("interaction"))
    }
}

extension Interaction: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            identifier: try object.optional("identifier"),
            groupIdentifier: try object.optional("groupIdentifier"),
            direction: try object.required("direction"),
            date: try object.optional("date"),
            intent: try object.required("intent")
        )
    }
}

extension Intent: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        switch IntentType(rawValue: try value.directObject().required("type", as: String.self)) {
        case .sendMessage: self = .sendMessage(try SendMessageIntent(directlyFrom: value))
        case .startCall: self = .startCall(try StartCallIntent(directlyFrom: value))
        case nil: throw JSONDirectDecodingFailure()
        }
    }
}

extension SendMessageIntent: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            sender: try object.optional("sender"),
            recipients: try object.optional("recipients"),
            content: try object.optional("content"),
            speakableGroupName: try object.optional("speakableGroupName"),
            conversationIdentifier: try object.required("conversationIdentifier"),
            serviceName: try object.optional("serviceName"),
            outgoingMessageType: try object.optional("outgoingMessageType"),
            groupImage: try object.optional("groupImage"),
            donationMetadata: try object.optional("donationMetadata")
        )
    }
}

extension StartCallIntent: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            contacts: try object.required("contacts"),
            callCapability: try object.optional("callCapability"),
            destinationType: try object.optional("destinationType"),
            audioRoute: try object.optional("audioRoute"),
            callRecordToCallBack: try object.optional("callRecordToCallBack"),
            groupImage: try object.optional("groupImage")
        )
    }
}

extension Person: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            handle: try object.optional("handle"),
            displayName: try object.optional("displayName"),
            nameComponents: try object.optional("nameComponents"),
            image: try object.optional("image"),
            contactIdentifier: try object.optional("contactIdentifier"),
            customIdentifier: try object.optional("customIdentifier"),
            aliases: try object.optional("aliases"),
            suggestionType: try object.optional("suggestionType"),
            isMe: try object.optional("isMe")
        )
    }
}

extension PersonHandle: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(value: try object.required("value"), type: try object.optional("type"))
    }
}

extension NameComponents: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            givenName: try object.optional("givenName"),
            familyName: try object.optional("familyName"),
            nickname: try object.optional("nickname")
        )
    }
}

extension NotificationImage: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            url: try object.optional("url"),
            data: try object.optional("data"),
            mimeType: try object.optional("mimeType")
        )
    }
}

extension DonationMetadata: JSONDirectDecodable {
    public init(directlyFrom value: JSONValue) throws(JSONDirectDecodingFailure) {
        let object = try value.directObject()
        self.init(
            recipientCount: try object.optional("recipientCount"),
            mentionsCurrentUser: try object.optional("mentionsCurrentUser"),
            isReplyToCurrentUser: try object.optional("isReplyToCurrentUser"),
            notifyRecipientAnyway: try object.optional("notifyRecipientAnyway")
        )
    }
}
