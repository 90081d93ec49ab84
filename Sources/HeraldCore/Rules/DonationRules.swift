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
/// - `notifyRecipientAnyway` needs the app's Focus authorization (1004): the one rule that
///   reads the state, checked apart (``validateAuthorization(_:authorization:at:)``) so that
///   the others run before the state's lock is taken.
///
/// The paths of errors are autoclosures, written out only when a rule is broken: building
/// them for every person of every donation was a few percent of `donate`'s CPU time.
enum DonationRules {
    static func validate(_ interaction: Interaction, at path: @autoclosure () -> MemberPath = ["interaction"]) throws(RuleError) {
        if let identifier = interaction.identifier, identifier.isEmpty {
            throw .invalidParams("An identifier cannot be empty; leave it out to have one generated.", at: path().appending("identifier"))
        }
        if let group = interaction.groupIdentifier, group.isEmpty {
            throw .invalidParams("A groupIdentifier cannot be empty.", at: path().appending("groupIdentifier"))
        }
        switch interaction.intent {
        case .sendMessage(let message):
            try validate(message, direction: interaction.direction, at: path().appending("intent"))
        case .startCall(let call):
            try validate(call, at: path().appending("intent"))
        }
    }

    private static func validate(
        _ message: SendMessageIntent,
        direction: InteractionDirection,
        at path: @autoclosure () -> MemberPath
    ) throws(RuleError) {
        // People are validated where they are, through optional chaining and by index:
        // binding one (`if let`, `enumerated()`) copies it, a dozen retains.
        try message.sender?.validateAsParticipant(at: path().appending("sender"))
        let recipientCount = message.recipients?.count ?? 0
        for index in 0..<recipientCount {
            try message.recipients?[index].validateAsParticipant(at: path().appending(["recipients", .index(index)]))
        }
        guard !message.conversationIdentifier.isEmpty else {
            throw .invalidParams("A message needs a conversationIdentifier.", at: path().appending("conversationIdentifier"))
        }
        let metadata = message.donationMetadata
        switch direction {
        case .incoming:
            guard message.sender.isPresent else {
                throw RuleError(.invalidParticipants, "An incoming message needs a sender.", at: path().appending("sender"))
            }
        case .outgoing:
            guard !message.sender.isPresent else {
                throw RuleError(
                    .invalidParticipants, "An outgoing message has no sender: the current user sent it. Leave sender out.",
                    at: path().appending("sender")
                )
            }
            guard recipientCount > 0 || metadata?.recipientCount != nil else {
                throw RuleError(
                    .invalidParticipants, "An outgoing message needs recipients or a donationMetadata.recipientCount.",
                    at: path().appending("recipients")
                )
            }
        }
        if let count = metadata?.recipientCount, count < recipientCount {
            throw .invalidParams(
                "recipientCount (\(count)) cannot be below the number of recipients (\(recipientCount)).",
                at: path().appending(["donationMetadata", "recipientCount"])
            )
        }
        if let image = message.groupImage {
            try PersonRules.validate(image, at: path().appending("groupImage"))
        }
    }

    /// A message that asks to notify its recipient anyway needs the app's Focus
    /// authorization; checked after ``validate(_:at:)``, the last of a message's rules.
    /// The authorization is looked up only for such a message.
    static func validateAuthorization(
        _ interaction: Interaction,
        authorization: @autoclosure () -> AuthorizationStatus,
        at path: @autoclosure () -> MemberPath = ["interaction"]
    ) throws(RuleError) {
        guard interaction.intent.asksToNotifyRecipientAnyway else { return }
        let authorization = authorization()
        guard authorization != .authorized else { return }
        throw RuleError(
            .focusAuthorizationRequired,
            "notifyRecipientAnyway needs this app's Focus authorization to be authorized; it is \(authorization.rawValue).",
            at: path().appending(["intent", "donationMetadata", "notifyRecipientAnyway"])
        )
    }

    private static func validate(_ call: StartCallIntent, at path: @autoclosure () -> MemberPath) throws(RuleError) {
        for index in call.contacts.indices {
            try call.contacts[index].validateAsParticipant(at: path().appending(["contacts", .index(index)]))
        }
        guard !call.contacts.isEmpty else {
            throw RuleError(.invalidParticipants, "A call needs at least one contact.", at: path().appending("contacts"))
        }
        if let image = call.groupImage {
            try PersonRules.validate(image, at: path().appending("groupImage"))
        }
    }
}

extension Person {
    /// An interaction's person: never the current user (1003), and of a valid shape.
    fileprivate func validateAsParticipant(at path: @autoclosure () -> MemberPath) throws(RuleError) {
        if isMe == true {
            throw RuleError(
                .invalidParticipants, "Never include the current user in an interaction's people (isMe: true).",
                at: path()
            )
        }
        try PersonRules.validate(self, at: path())
    }
}

extension Intent {
    /// Whether a message's `donationMetadata.notifyRecipientAnyway` is true; read without
    /// copying the message out.
    var asksToNotifyRecipientAnyway: Bool {
        guard case .sendMessage(let message) = self else { return false }
        return message.donationMetadata?.notifyRecipientAnyway == true
    }
}
