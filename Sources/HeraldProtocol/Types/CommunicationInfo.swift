/// What makes a notification a communication notification: who it is from, whom it is
/// to, and the avatar to show — the `content.communication` member Herald adds.
package struct CommunicationInfo: Codable, Sendable, Hashable {
    package var type: IntentType
    /// The message's conversation; absent for a call.
    package var conversationIdentifier: String?
    /// The message's sender, or the call's first contact.
    package var sender: Person?
    /// The other people besides the sender and the user: a message's recipients, a
    /// call's other contacts.
    package var recipients: [Person]
    package var isGroup: Bool
    /// The sender's image for a one-to-one conversation, the group image for a group.
    package var avatar: NotificationImage?
    package var mentionsCurrentUser: Bool
    package var isReplyToCurrentUser: Bool

    package init(
        type: IntentType,
        conversationIdentifier: String? = nil,
        sender: Person? = nil,
        recipients: [Person] = [],
        isGroup: Bool = false,
        avatar: NotificationImage? = nil,
        mentionsCurrentUser: Bool = false,
        isReplyToCurrentUser: Bool = false
    ) {
        self.type = type
        self.conversationIdentifier = conversationIdentifier
        self.sender = sender
        self.recipients = recipients
        self.isGroup = isGroup
        self.avatar = avatar
        self.mentionsCurrentUser = mentionsCurrentUser
        self.isReplyToCurrentUser = isReplyToCurrentUser
    }
}

extension CommunicationInfo: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("type", type)
        members.add("conversationIdentifier", conversationIdentifier)
        members.add("sender", sender)
        members.add("recipients", recipients)
        members.add("isGroup", isGroup)
        members.add("avatar", avatar)
        members.add("mentionsCurrentUser", mentionsCurrentUser)
        members.add("isReplyToCurrentUser", isReplyToCurrentUser)
    }
}
