/// The conversations whose messages the current Focus activation silenced — what
/// `notifyRecipientAnyway` needs: a message breaks through when an earlier message of
/// its conversation was silenced by this same Focus.
///
/// Marks of an earlier activation mean nothing, so a mark for a new activation clears
/// them all. Each uid holds at most `--max-silenced-per-uid` marks: past it, its
/// conversations are not marked (a later `notifyRecipientAnyway` message of them is not
/// let through), and nobody else's marks are touched.
struct SilencedConversations: Sendable {
    struct Conversation: Hashable, Sendable {
        var uid: UInt32
        var app: String
        var conversationIdentifier: String
    }

    private(set) var activation: UInt64 = 0
    private(set) var conversations: Set<Conversation> = []
    /// Marks by uid, for `maxSilencedMarksPerUID`; derived, so not encoded.
    private var counts: [UInt32: Int] = [:]

    init() {}

    /// Marks `conversation` silenced in `activation`, unless its uid holds `limit` marks
    /// already; false when refused.
    @discardableResult
    mutating func mark(_ conversation: Conversation, activation: UInt64, limit: Int = .max) -> Bool {
        if activation != self.activation {
            self.activation = activation
            conversations = []
            counts = [:]
        }
        guard !conversations.contains(conversation) else { return true }
        guard counts[conversation.uid, default: 0] < limit else { return false }
        conversations.insert(conversation)
        counts[conversation.uid, default: 0] += 1
        return true
    }

    func contains(_ conversation: Conversation, activation: UInt64) -> Bool {
        activation == self.activation && conversations.contains(conversation)
    }

    /// How many marks `uid` holds.
    func count(of uid: UInt32) -> Int {
        counts[uid] ?? 0
    }

    /// The marks of `activation`, as a snapshot restores them; nil when a conversation is
    /// marked twice (a set never holds one twice).
    init?(activation: UInt64, conversations marks: [Conversation]) {
        self.activation = activation
        conversations = Set(marks)
        guard conversations.count == marks.count else { return nil }
        for conversation in conversations {
            counts[conversation.uid, default: 0] += 1
        }
    }
}
