/// The conversations whose messages the current Focus activation silenced — what
/// `notifyRecipientAnyway` needs: a message breaks through when an earlier message of
/// its conversation was silenced by this same Focus.
///
/// Marks of an earlier activation mean nothing, so a mark for a new activation clears
/// them all.
struct SilencedConversations: Sendable, Codable {
    struct Conversation: Hashable, Sendable, Codable {
        var uid: UInt32
        var app: String
        var conversationIdentifier: String
    }

    private(set) var activation: UInt64 = 0
    private(set) var conversations: Set<Conversation> = []

    init() {}

    mutating func mark(_ conversation: Conversation, activation: UInt64) {
        if activation != self.activation {
            self.activation = activation
            conversations = []
        }
        conversations.insert(conversation)
    }

    func contains(_ conversation: Conversation, activation: UInt64) -> Bool {
        activation == self.activation && conversations.contains(conversation)
    }
}
