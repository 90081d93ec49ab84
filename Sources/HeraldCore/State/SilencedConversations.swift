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

    private enum CodingKeys: String, CodingKey {
        case activation, conversations
    }

    /// Refuses a conversation marked twice: a set never holds one twice.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activation = try container.decode(UInt64.self, forKey: .activation)
        let marks = try container.decode([Conversation].self, forKey: .conversations)
        conversations = Set(marks)
        guard conversations.count == marks.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .conversations,
                in: container,
                debugDescription: "A conversation is marked twice."
            )
        }
    }

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
