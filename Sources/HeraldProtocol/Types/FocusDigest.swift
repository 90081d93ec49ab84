import FoundationEssentials

/// What one Focus activation silenced, told to the uid's presenters as `focus-digest` when
/// it ends ("while Work was on: 12 notifications"), and kept for `get-focus-digest`.
///
/// Counts only what the Focus delivered quietly (`silencedByFocus`); notifications held
/// for the scheduled summary are the summary's. Each silenced notification counts in one
/// entry: its conversation's when it is a message of one, else its app's.
package struct FocusDigest: Codable, Sendable, Hashable {
    package static let method = "focus-digest"

    package var uid: UInt32
    /// The Focus that was on.
    package var focus: String
    /// When it came on; absent when Herald did not see it come on (a snapshot from before
    /// digests).
    package var startedAt: Date?
    /// When it ended; absent while it is still on (`get-focus-digest`'s `running`).
    package var endedAt: Date?
    package var endedBy: FocusDigestEnd?
    /// Every notification it silenced, listed or not.
    package var total: Int
    /// Most relevant first: conversations by count, then apps by count; a tie, the one
    /// silenced last first.
    package var entries: [FocusDigestEntry]
    /// Notifications of conversations and apps past the most a digest lists ("and N more").
    package var unlisted: Int

    package init(
        uid: UInt32, focus: String, startedAt: Date?, endedAt: Date?, endedBy: FocusDigestEnd?, total: Int,
        entries: [FocusDigestEntry], unlisted: Int
    ) {
        self.uid = uid
        self.focus = focus
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.endedBy = endedBy
        self.total = total
        self.entries = entries
        self.unlisted = unlisted
    }
}

/// How many notifications a Focus silenced of one conversation (`conversationIdentifier`
/// given) or of one app (the rest of that app's).
package struct FocusDigestEntry: Codable, Sendable, Hashable {
    package var app: String
    package var conversationIdentifier: String?
    /// A group conversation's name, when it has one.
    package var conversationName: String?
    /// The names of the conversation's senders it silenced, the first few, in order.
    package var senders: [String]?
    package var count: Int
    /// When it silenced the last of them.
    package var lastAt: Date

    package init(
        app: String, conversationIdentifier: String? = nil, conversationName: String? = nil, senders: [String]? = nil, count: Int,
        lastAt: Date
    ) {
        self.app = app
        self.conversationIdentifier = conversationIdentifier
        self.conversationName = conversationName
        self.senders = senders
        self.count = count
        self.lastAt = lastAt
    }
}

/// Why a Focus activation ended.
package enum FocusDigestEnd: String, JSONEnum, Hashable {
    /// Turned off by hand (`set-focus` with neither focus nor name).
    case turnedOff
    /// Its `until` passed, or its schedule window ended.
    case ended
    /// Its definition was deleted (`delete-focus`).
    case deleted
    /// Another Focus came on, or a new schedule window of the same one (a new activation);
    /// setting the Focus already on again continues its activation and ends nothing.
    case replaced
}
