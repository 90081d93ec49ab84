/// What makes a notification a communication notification: who it is from, whom it is
/// to, and the avatar to show — the `content.communication` member Herald adds.
public struct CommunicationInfo: Codable, Sendable, Hashable {
    public var type: IntentType
    /// The message's conversation; absent for a call.
    public var conversationIdentifier: String?
    /// The message's sender, or the call's first contact.
    public var sender: Person?
    /// The other people besides the sender and the user: a message's recipients, a
    /// call's other contacts.
    public var recipients: [Person]
    public var isGroup: Bool
    /// The sender's image for a one-to-one conversation, the group image for a group.
    public var avatar: NotificationImage?
    public var mentionsCurrentUser: Bool
    public var isReplyToCurrentUser: Bool

    public init(
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
