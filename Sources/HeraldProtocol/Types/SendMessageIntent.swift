/// A message sent or received (`INSendMessageIntent`).
///
/// An incoming message has a `sender`; an outgoing one has none — the current user sent
/// it — and has `recipients` or a `donationMetadata.recipientCount`. `recipients` are the
/// people besides the sender and the user.
package struct SendMessageIntent: Codable, Sendable, Hashable {
    package var sender: Person?
    package var recipients: [Person]?
    package var content: String?
    /// The group's name, shown as the notification's subtitle.
    package var speakableGroupName: String?
    package var conversationIdentifier: String
    package var serviceName: String?
    package var outgoingMessageType: OutgoingMessageType?
    package var groupImage: NotificationImage?
    package var donationMetadata: DonationMetadata?

    package init(
        sender: Person? = nil,
        recipients: [Person]? = nil,
        content: String? = nil,
        speakableGroupName: String? = nil,
        conversationIdentifier: String,
        serviceName: String? = nil,
        outgoingMessageType: OutgoingMessageType? = nil,
        groupImage: NotificationImage? = nil,
        donationMetadata: DonationMetadata? = nil
    ) {
        self.sender = sender
        self.recipients = recipients
        self.content = content
        self.speakableGroupName = speakableGroupName
        self.conversationIdentifier = conversationIdentifier
        self.serviceName = serviceName
        self.outgoingMessageType = outgoingMessageType
        self.groupImage = groupImage
        self.donationMetadata = donationMetadata
    }
}

/// The kind of an outgoing message (`INOutgoingMessageType`).
package enum OutgoingMessageType: String, JSONEnum, Hashable {
    case text
    case audio
}

extension SendMessageIntent {
    /// Reads its members from the intent's object, beside `type` (see ``Intent``).
    init(reading members: inout ParamsObjectReader) throws(RPCError) {
        self.init(
            sender: try members.optional("sender"),
            recipients: try members.optional("recipients"),
            content: try members.optional("content"),
            speakableGroupName: try members.optional("speakableGroupName"),
            conversationIdentifier: try members.required("conversationIdentifier"),
            serviceName: try members.optional("serviceName"),
            outgoingMessageType: try members.optional("outgoingMessageType"),
            groupImage: try members.optional("groupImage"),
            donationMetadata: try members.optional("donationMetadata")
        )
    }
}
