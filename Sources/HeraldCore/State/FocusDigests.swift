import FoundationEssentials
import HeraldProtocol

/// What each uid's Focus activation silenced, counted while it is on, and the digest made
/// when it ends (KDE Plasma's "while Do Not Disturb was on").
///
/// A tally starts with each activation (``FocusState``: a turn on by hand, a schedule
/// window, a definition that turns one on) and ends with it: turned off, its `until` or
/// window over, deleted, or replaced by another activation (another Focus, or a new window
/// of the same one). Setting the Focus already on continues its tally, so an edit makes no
/// digest and loses no count (issue 45). An activation that silenced something
/// leaves one digest, the uid's last (``last``), and one for the presenters (``pending``);
/// one that silenced nothing leaves none.
///
/// Bounded per uid: at most ``maxEntries`` conversations and apps, ``maxSenders`` names
/// of a conversation, each name at most ``maxNameBytes`` of UTF-8 (cut on a character's
/// edge: one character may hold thousands of combining marks, so a bound in characters
/// bounds nothing); what falls past counts in `unlisted`. A conversation whose identifier
/// is longer than ``maxConversationIdentifierBytes`` counts as its app's, so that a digest
/// stays well within a response and a presenter's unread bytes (about 70 KB at the most).
/// Names restored from a snapshot are cut the same way.
struct FocusDigests: Sendable {
    static let maxEntries = 32
    static let maxSenders = 5
    static let maxNameBytes = 256
    static let maxConversationIdentifierBytes = 256
    /// Digests not yet sent; the oldest dropped beyond (as ``FocusTable/maxPendingChanges``).
    static let maxPending = 4096

    struct Key: Hashable, Sendable {
        var app: String
        var conversationIdentifier: String?
    }

    struct Entry: Hashable, Sendable {
        var count: Int
        var lastAt: Date
        var conversationName: String?
        var senders: [String] = []
    }

    /// One activation's running counts.
    struct Tally: Hashable, Sendable {
        var activation: UInt64
        var focus: String
        var startedAt: Date?
        var total = 0
        var unlisted = 0
        var entries: [Key: Entry] = [:]
    }

    private(set) var running: [UInt32: Tally] = [:]
    private(set) var last: [UInt32: FocusDigest] = [:]
    private(set) var pending: [FocusDigest] = []

    init() {}

    // MARK: Counting

    /// `uid`'s Focus in effect is now `after` (`change`): the tally of an activation no
    /// longer on ends, and one for a new activation starts.
    mutating func focusChanged(uid: UInt32, to after: FocusState.Active?, change: FocusState.Change) {
        if let tally = running[uid], tally.activation != after?.activation {
            let endedBy: FocusDigestEnd
            if after != nil {
                endedBy = .replaced
            } else {
                switch change.cause {
                case .manual, .released, .held: endedBy = .turnedOff
                case .deleted: endedBy = .deleted
                case .ended, .schedule: endedBy = .ended
                }
            }
            end(uid: uid, at: change.at, by: endedBy)
        }
        if let after, running[uid]?.activation != after.activation {
            running[uid] = Tally(activation: after.activation, focus: after.name, startedAt: change.at)
        }
    }

    /// Counts `notification`, which `focus` (in `activation`) delivered quietly, for `uid`.
    mutating func countSilenced(_ notification: HeraldNotification, uid: UInt32, activation: UInt64, focus: String, at now: Date) {
        if let tally = running[uid], tally.activation != activation {
            // An activation whose end was not seen (restored from an older snapshot).
            end(uid: uid, at: now, by: .replaced)
        }
        var tally = running.removeValue(forKey: uid) ?? Tally(activation: activation, focus: focus, startedAt: nil)
        defer { running[uid] = tally }
        tally.total += 1
        let communication = notification.content.communication
        let conversation = communication?.conversationIdentifier.flatMap { $0.utf8.count <= Self.maxConversationIdentifierBytes ? $0 : nil }
        let key = Key(app: notification.app, conversationIdentifier: conversation)
        guard var entry = tally.entries[key] ?? (tally.entries.count < Self.maxEntries ? Entry(count: 0, lastAt: now) : nil) else {
            tally.unlisted += 1
            return
        }
        entry.count += 1
        entry.lastAt = now
        if key.conversationIdentifier != nil, let communication {
            if communication.isGroup, let name = notification.content.subtitle, !name.isEmpty {
                entry.conversationName = Self.bounded(name)
            }
            if let sender = communication.sender.map(DisplayName.of), !sender.isEmpty {
                let name = Self.bounded(sender)
                if entry.senders.count < Self.maxSenders, !entry.senders.contains(name) { entry.senders.append(name) }
            }
        }
        tally.entries[key] = entry
    }

    /// Ends `uid`'s tally: its digest, unless it silenced nothing.
    private mutating func end(uid: UInt32, at now: Date, by endedBy: FocusDigestEnd) {
        guard let tally = running.removeValue(forKey: uid), tally.total > 0 else { return }
        let digest = Self.digest(of: tally, uid: uid, endedAt: now, endedBy: endedBy)
        last[uid] = digest
        if pending.count >= Self.maxPending { pending.removeFirst() }
        pending.append(digest)
    }

    /// The digests made since the last call, oldest first.
    mutating func takePending() -> [FocusDigest] {
        defer { pending = [] }
        return pending
    }

    // MARK: Reading

    /// Whether `uid`'s running tally has counted what was silenced at `date`: its
    /// activation was on then (a tally of unknown start, from an older snapshot, is taken
    /// to have).
    func hasCounted(uid: UInt32, silencedAt date: Date) -> Bool {
        guard let tally = running[uid] else { return false }
        return tally.startedAt.map { date >= $0 } ?? true
    }

    /// `uid`'s running tally as a digest so far (no end); nil when none is on.
    func runningDigest(uid: UInt32) -> FocusDigest? {
        running[uid].map { Self.digest(of: $0, uid: uid, endedAt: nil, endedBy: nil) }
    }

    /// A tally as a digest: conversations first, then apps; each by count, then the one
    /// silenced last first, then by app and conversation (so equal tallies read alike).
    static func digest(of tally: Tally, uid: UInt32, endedAt: Date?, endedBy: FocusDigestEnd?) -> FocusDigest {
        let ordered = tally.entries.sorted { a, b in
            let aConversation = a.key.conversationIdentifier != nil
            let bConversation = b.key.conversationIdentifier != nil
            if aConversation != bConversation { return aConversation }
            if a.value.count != b.value.count { return a.value.count > b.value.count }
            if a.value.lastAt != b.value.lastAt { return a.value.lastAt > b.value.lastAt }
            if a.key.app != b.key.app { return a.key.app < b.key.app }
            return (a.key.conversationIdentifier ?? "") < (b.key.conversationIdentifier ?? "")
        }
        return FocusDigest(
            uid: uid, focus: tally.focus, startedAt: tally.startedAt, endedAt: endedAt, endedBy: endedBy, total: tally.total,
            entries: ordered.map { key, entry in
                FocusDigestEntry(
                    app: key.app, conversationIdentifier: key.conversationIdentifier, conversationName: entry.conversationName,
                    senders: entry.senders.isEmpty ? nil : entry.senders, count: entry.count, lastAt: entry.lastAt)
            },
            unlisted: tally.unlisted
        )
    }

    private static func bounded(_ name: String) -> String {
        ClippedText.clipped(name, maxBytes: maxNameBytes)
    }

    // MARK: Snapshots

    /// Every running tally (as a digest so far, with its activation) and last digest, by uid.
    var stored: (running: [(activation: UInt64, digest: FocusDigest)], last: [FocusDigest]) {
        (
            running.keys.sorted().map { uid in (running[uid]!.activation, runningDigest(uid: uid)!) },
            last.keys.sorted().map { last[$0]! }
        )
    }

    /// Restores what ``stored`` kept; false unless each uid comes once in each list, within
    /// the bounds, with counts that add up.
    mutating func restore(running: [(activation: UInt64, digest: FocusDigest)], last: [FocusDigest]) -> Bool {
        var restored = FocusDigests()
        for (activation, digest) in running {
            guard restored.running[digest.uid] == nil, let tally = Self.tally(of: digest, activation: activation) else { return false }
            restored.running[digest.uid] = tally
        }
        for digest in last {
            guard restored.last[digest.uid] == nil, digest.total > 0, Self.tally(of: digest, activation: 0) != nil else { return false }
            restored.last[digest.uid] = Self.withNamesBounded(digest)
        }
        self = restored
        return true
    }

    /// `digest` with its names cut to ``maxNameBytes``.
    private static func withNamesBounded(_ digest: FocusDigest) -> FocusDigest {
        var digest = digest
        for index in digest.entries.indices {
            digest.entries[index].conversationName = digest.entries[index].conversationName.map(bounded)
            digest.entries[index].senders = digest.entries[index].senders?.map(bounded)
        }
        return digest
    }

    private static func tally(of digest: FocusDigest, activation: UInt64) -> Tally? {
        guard digest.entries.count <= maxEntries, digest.unlisted >= 0,
            digest.entries.allSatisfy({
                $0.count > 0 && ($0.senders?.count ?? 0) <= maxSenders
                    && ($0.conversationIdentifier?.utf8.count ?? 0) <= maxConversationIdentifierBytes
            }),
            digest.entries.reduce(digest.unlisted, { $0 + $1.count }) == digest.total
        else { return nil }
        var tally = Tally(activation: activation, focus: digest.focus, startedAt: digest.startedAt, total: digest.total, unlisted: digest.unlisted)
        for entry in digest.entries {
            let key = Key(app: entry.app, conversationIdentifier: entry.conversationIdentifier)
            guard tally.entries[key] == nil else { return nil }
            // Cut as counting cuts them: a snapshot written before names were bounded in
            // bytes (or by hand) must not bring back a digest of megabytes.
            tally.entries[key] = Entry(
                count: entry.count, lastAt: entry.lastAt, conversationName: entry.conversationName.map(bounded),
                senders: (entry.senders ?? []).map(bounded))
        }
        return tally
    }
}
