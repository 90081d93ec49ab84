import HeraldProtocol

/// Turns a notification's content into a communication notification, as
/// `content.updating(from: intent)` does in a Notification Service Extension.
///
/// Every member the app gave is kept, except that:
/// - `title` becomes the sender's display name (for a call, its first contact's);
/// - for a group, `subtitle` becomes `speakableGroupName`, or else a ``GroupSubtitle``;
/// - `threadIdentifier` defaults to the message's `conversationIdentifier` (for a call,
///   the interaction's `groupIdentifier`);
/// - `relevanceScore` defaults to 1.0 for a message that mentions or replies to the user;
/// - `communication` is added, with the avatar: the sender's image one-to-one, the group
///   image for a group.
enum CommunicationContent {
    static func make(from content: NotificationContent, for interaction: Interaction) -> NotificationContent {
        var result = content
        switch interaction.intent {
        case .sendMessage(let message):
            let recipients = message.recipients ?? []
            let metadata = message.donationMetadata
            let others = metadata?.recipientCount ?? recipients.count
            let isGroup = max(others, recipients.count) > 0
            let mentions = metadata?.mentionsCurrentUser ?? false
            let reply = metadata?.isReplyToCurrentUser ?? false
            if let sender = message.sender {
                result.title = DisplayName.of(sender)
            }
            if isGroup {
                if let name = message.speakableGroupName, !name.isEmpty {
                    result.subtitle = name
                } else {
                    result.subtitle = GroupSubtitle.summary(
                        named: recipients.map(DisplayName.of),
                        count: others,
                        preposition: .to
                    )
                }
            }
            if result.threadIdentifier == nil {
                result.threadIdentifier = message.conversationIdentifier
            }
            if result.relevanceScore == nil, mentions || reply {
                result.relevanceScore = 1.0
            }
            result.communication = CommunicationInfo(
                type: .sendMessage,
                conversationIdentifier: message.conversationIdentifier,
                sender: message.sender,
                recipients: recipients,
                isGroup: isGroup,
                avatar: isGroup ? message.groupImage : message.sender?.image,
                mentionsCurrentUser: mentions,
                isReplyToCurrentUser: reply
            )
        case .startCall(let call):
            let caller = call.contacts.first
            let others = Array(call.contacts.dropFirst())
            let isGroup = !others.isEmpty
            if let caller {
                result.title = DisplayName.of(caller)
            }
            if isGroup {
                result.subtitle = GroupSubtitle.summary(
                    named: others.map(DisplayName.of),
                    count: others.count,
                    preposition: .with
                )
            }
            if result.threadIdentifier == nil {
                result.threadIdentifier = interaction.groupIdentifier
            }
            result.communication = CommunicationInfo(
                type: .startCall,
                sender: caller,
                recipients: others,
                isGroup: isGroup,
                avatar: isGroup ? call.groupImage : caller?.image
            )
        }
        return result
    }
}
