/// The conversations whose messages the current Focus activation silenced — what
/// `notifyRecipientAnyway` needs: a message breaks through when an earlier message of
/// its conversation was silenced by this same Focus.
///
/// Each uid has its own Focus, so each uid's marks belong to that uid's activation:
/// marks of an earlier activation mean nothing, so a mark for a new activation clears
/// that uid's marks (and nobody else's). Activation numbers are unique across uids. Each
/// uid holds at most `--max-silenced-per-uid` marks: past it, its conversations are not
/// marked (a later `notifyRecipientAnyway` message of them is not let through).
struct SilencedConversations: Sendable {
    struct Conversation: Hashable, Sendable {
        var uid: UInt32
        var app: String
        var conversationIdentifier: String
    }

    private struct Marks: Sendable {
        var activation: UInt64
        var conversations: Set<Conversation> = []
    }

    private var byUID: [UInt32: Marks] = [:]

    init() {}

    /// Every mark, with the activation it belongs to.
    var marks: [(conversation: Conversation, activation: UInt64)] {
        byUID.values.flatMap { marks in marks.conversations.map { ($0, marks.activation) } }
    }

    /// The highest activation any uid's marks belong to (what format 3 snapshots stored).
    var activation: UInt64 { byUID.values.map(\.activation).max() ?? 0 }

    /// Marks `conversation` silenced in `activation`, unless its uid holds `limit` marks
    /// already; false when refused.
    @discardableResult
    mutating func mark(_ conversation: Conversation, activation: UInt64, limit: Int = .max) -> Bool {
        if byUID[conversation.uid]?.activation != activation {
            byUID[conversation.uid] = Marks(activation: activation)
        }
        guard !byUID[conversation.uid]!.conversations.contains(conversation) else { return true }
        guard byUID[conversation.uid]!.conversations.count < limit else { return false }
        byUID[conversation.uid]!.conversations.insert(conversation)
        return true
    }

    func contains(_ conversation: Conversation, activation: UInt64) -> Bool {
        guard let marks = byUID[conversation.uid], marks.activation == activation else { return false }
        return marks.conversations.contains(conversation)
    }

    /// How many marks `uid` holds.
    func count(of uid: UInt32) -> Int {
        byUID[uid]?.conversations.count ?? 0
    }

    /// The marks, each of its activation, as a snapshot restores them; nil when a
    /// conversation is marked twice, or one uid's marks name two activations.
    init?(marks: [(conversation: Conversation, activation: UInt64)]) {
        for (conversation, activation) in marks {
            if let held = byUID[conversation.uid], held.activation != activation { return nil }
            guard byUID[conversation.uid, default: Marks(activation: activation)].conversations.insert(conversation).inserted else { return nil }
        }
    }
}
