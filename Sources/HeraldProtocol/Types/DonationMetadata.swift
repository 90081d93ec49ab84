/// What a message's donation adds about the user (`INSendMessageIntentDonationMetadata`).
package struct DonationMetadata: Codable, Sendable, Hashable {
    /// The number of people besides the user; at least the number of `recipients`.
    package var recipientCount: Int?
    package var mentionsCurrentUser: Bool?
    package var isReplyToCurrentUser: Bool?
    /// Breaks through a Focus that silenced an earlier message of the conversation; needs
    /// the app's Focus authorization.
    package var notifyRecipientAnyway: Bool?

    package init(
        recipientCount: Int? = nil,
        mentionsCurrentUser: Bool? = nil,
        isReplyToCurrentUser: Bool? = nil,
        notifyRecipientAnyway: Bool? = nil
    ) {
        self.recipientCount = recipientCount
        self.mentionsCurrentUser = mentionsCurrentUser
        self.isReplyToCurrentUser = isReplyToCurrentUser
        self.notifyRecipientAnyway = notifyRecipientAnyway
    }
}

extension DonationMetadata: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DonationMetadata(
                recipientCount: try members.optional("recipientCount"),
                mentionsCurrentUser: try members.optional("mentionsCurrentUser"),
                isReplyToCurrentUser: try members.optional("isReplyToCurrentUser"),
                notifyRecipientAnyway: try members.optional("notifyRecipientAnyway")
            )
        }
    }
}
