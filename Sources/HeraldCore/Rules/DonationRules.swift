import HeraldProtocol

/// The rules a donation must keep, as the seeds state them.
///
/// - A message needs a `conversationIdentifier`.
/// - An incoming message needs a `sender`. An outgoing one has none — the current user
///   is the sender — so a sender there is error 1003; it needs `recipients` or a
///   `recipientCount`.
/// - A call needs at least one contact.
/// - Nobody is `isMe: true`: "never include the current user" (1003).
/// - `recipientCount` is at least the number of `recipients`.
/// - `notifyRecipientAnyway` needs the app's Focus authorization (1004).
///
/// The pointers of errors are autoclosures, written out only when a rule is broken: building
/// them for every person of every donation was a few percent of `donate`'s CPU time.
enum DonationRules {
    static func validate(
        _ interaction: Interaction,
        authorization: AuthorizationStatus,
        at pointer: @autoclosure () -> String = "/interaction"
    ) throws(RPCError) {
        if let identifier = interaction.identifier, identifier.isEmpty {
            throw .invalidParams("An identifier cannot be empty; leave it out to have one generated.", at: "\(pointer())/identifier")
        }
        if let group = interaction.groupIdentifier, group.isEmpty {
            throw .invalidParams("A groupIdentifier cannot be empty.", at: "\(pointer())/groupIdentifier")
        }
        switch interaction.intent {
        case .sendMessage(let message):
            try validate(message, direction: interaction.direction, authorization: authorization, at: "\(pointer())/intent")
        case .startCall(let call):
            try validate(call, at: "\(pointer())/intent")
        }
    }

    private static func validate(
        _ message: SendMessageIntent,
        direction: InteractionDirection,
        authorization: AuthorizationStatus,
        at pointer: @autoclosure () -> String
    ) throws(RPCError) {
        if let sender = message.sender {
            try validateParticipant(sender, at: "\(pointer())/sender")
        }
        let recipients = message.recipients ?? []
        for (index, recipient) in recipients.enumerated() {
            try validateParticipant(recipient, at: "\(pointer())/recipients/\(index)")
        }
        guard !message.conversationIdentifier.isEmpty else {
            throw .invalidParams("A message needs a conversationIdentifier.", at: "\(pointer())/conversationIdentifier")
        }
        let metadata = message.donationMetadata
        switch direction {
        case .incoming:
            guard message.sender != nil else {
                throw RPCError(.invalidParticipants, reason: "An incoming message needs a sender.", pointer: "\(pointer())/sender")
            }
        case .outgoing:
            guard message.sender == nil else {
                throw RPCError(
                    .invalidParticipants,
                    reason: "An outgoing message has no sender: the current user sent it. Leave sender out.",
                    pointer: "\(pointer())/sender"
                )
            }
            guard !recipients.isEmpty || metadata?.recipientCount != nil else {
                throw RPCError(
                    .invalidParticipants,
                    reason: "An outgoing message needs recipients or a donationMetadata.recipientCount.",
                    pointer: "\(pointer())/recipients"
                )
            }
        }
        if let count = metadata?.recipientCount, count < recipients.count {
            throw .invalidParams(
                "recipientCount (\(count)) cannot be below the number of recipients (\(recipients.count)).",
                at: "\(pointer())/donationMetadata/recipientCount"
            )
        }
        if let image = message.groupImage {
            try PersonRules.validate(image, at: "\(pointer())/groupImage")
        }
        if metadata?.notifyRecipientAnyway == true, authorization != .authorized {
            throw RPCError(
                .focusAuthorizationRequired,
                reason: "notifyRecipientAnyway needs this app's Focus authorization to be authorized; it is \(authorization.rawValue).",
                pointer: "\(pointer())/donationMetadata/notifyRecipientAnyway"
            )
        }
    }

    private static func validate(_ call: StartCallIntent, at pointer: @autoclosure () -> String) throws(RPCError) {
        for (index, contact) in call.contacts.enumerated() {
            try validateParticipant(contact, at: "\(pointer())/contacts/\(index)")
        }
        guard !call.contacts.isEmpty else {
            throw RPCError(.invalidParticipants, reason: "A call needs at least one contact.", pointer: "\(pointer())/contacts")
        }
        if let image = call.groupImage {
            try PersonRules.validate(image, at: "\(pointer())/groupImage")
        }
    }

    /// An interaction's person: never the current user (1003), and of a valid shape.
    private static func validateParticipant(_ person: Person, at pointer: @autoclosure () -> String) throws(RPCError) {
        if person.isMe == true {
            throw RPCError(
                .invalidParticipants,
                reason: "Never include the current user in an interaction's people (isMe: true).",
                pointer: pointer()
            )
        }
        try PersonRules.validate(person, at: pointer())
    }
}
