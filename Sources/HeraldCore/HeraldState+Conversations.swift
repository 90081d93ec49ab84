import FoundationEssentials
import HeraldProtocol

/// The conversations the person controls: `set-conversation`, `list-conversations`. A
/// caller acts on its own uid; an administrator may name any `uid`.
///
/// A mute is the person's, independent of any Focus: the conversation's messages are
/// delivered quietly (`conversationMuted`) until it ends. It does not hold back a critical
/// notification, and calls name no conversation, so no call (a repeated one included) is
/// ever muted. A priority conversation breaks through a Focus like an allowed person
/// (`priorityConversation`), even one whose silence lists name its sender or app: the
/// person chose this conversation, which is narrower than a person or an app. Muted and
/// priority at once, the mute wins while it lasts, and priority holds again after.
extension HeraldState {
    /// The longest a mute for a while may last; longer is `forever`.
    package static let maxConversationMuteSeconds: Double = 365 * 86_400

    /// `set-conversation`: mutes or unmutes the conversation, marks it priority or not;
    /// returns what it is now.
    package mutating func setConversation(_ p: SetConversationParams, caller: Caller, now: Date) throws(RuleError)
        -> MethodOutcome<ConversationControl>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        try AppName.validate(p.app)
        guard !p.conversationIdentifier.isEmpty else {
            throw .invalidParams("conversationIdentifier is the conversation's, as its notifications' content names it; it is empty.", at: ["conversationIdentifier"])
        }
        let identifierBytes = p.conversationIdentifier.utf8.count
        guard identifierBytes <= ConversationControls.maxIdentifierBytes else {
            throw RuleError(
                .invalidParams,
                "conversationIdentifier is \(identifierBytes) bytes of UTF-8; a conversation Herald mutes or marks priority has at most \(ConversationControls.maxIdentifierBytes) (a longer one's messages count as their app's).",
                at: ["conversationIdentifier"], limit: ConversationControls.maxIdentifierBytes)
        }
        if p.mute != nil, p.unmute == true {
            throw .invalidParams("Give mute or unmute, not both.", at: ["unmute"])
        }
        guard p.mute != nil || p.unmute == true || p.priority != nil else {
            throw .invalidParams("Say what to change: mute, unmute: true, or priority.", at: ["mute"])
        }
        let key = ConversationControls.Key(app: p.app, conversationIdentifier: p.conversationIdentifier)
        var control = conversations.control(uid: uid, key: key, now: now) ?? ConversationControls.Control()
        var changes: [String] = []
        if let mute = p.mute {
            control.mute = try Self.muteEnd(mute, now: now)
            changes.append(control.mute.map(Self.muteText) ?? "mute=off")
        }
        if p.unmute == true {
            control.mute = nil
            changes.append("mute=off")
        }
        if let priority = p.priority {
            control.priority = priority
            changes.append("priority=\(priority)")
        }
        let limit = configuration.maxConversationsPerUID
        guard conversations.set(control, uid: uid, key: key, now: now, limit: limit) else {
            throw RuleError(
                .invalidParams,
                "You control \(limit) conversations already, the most one uid may (--max-conversations-per-uid): unmute one, or take one's priority away, first (list-conversations shows them).",
                at: ["conversationIdentifier"], limit: limit)
        }
        var audit = AuditRecord(app: p.app, conversationIdentifier: p.conversationIdentifier)
        audit.settingUID = uid
        audit.conversationControl = changes
        return MethodOutcome(result: Self.wire(control, key: key), audit: audit)
    }

    /// `list-conversations`: a page of the uid's controlled conversations after `cursor`,
    /// by app then conversation (each by its UTF-8 bytes), within `budget` and `limit`. An ended mute is not shown.
    package func listConversations(
        _ p: ListConversationsParams, caller: Caller, now: Date, budget: PageBudget<ConversationControl> = .unbounded
    ) throws(RuleError) -> MethodOutcome<ListConversationsResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        if let app = p.app { try AppName.validate(app) }
        if let limit = p.limit, limit < 1 {
            throw .invalidParams("limit is how many conversations at most, 1 or more; got \(limit).", at: ["limit"])
        }
        var after: ConversationControls.Key?
        if let cursor = p.cursor {
            guard let slash = cursor.firstIndex(of: "/"), AppName.isValid(String(cursor[..<slash])) else {
                throw .invalidParams("cursor is a nextCursor list-conversations answered; this is none.", at: ["cursor"])
            }
            after = ConversationControls.Key(app: String(cursor[..<slash]), conversationIdentifier: String(cursor[cursor.index(after: slash)...]))
        }
        let items = conversations.sorted(uid: uid, now: now).lazy
            .filter { entry in (p.app.map { entry.key.app == $0 } ?? true) && (after.map { entry.key > $0 } ?? true) }
            .map { (place: $0.key, item: Self.wire($0.control, key: $0.key)) }
        let page = budget.page(items, limit: p.limit ?? .max)
        var audit = AuditRecord(app: p.app)
        audit.settingUID = uid
        return MethodOutcome(
            result: ListConversationsResult(
                uid: uid, conversations: page.items, nextCursor: page.next.map { "\($0.app)/\($0.conversationIdentifier)" }),
            audit: audit)
    }

    /// `uid`'s control of an app's conversation at `now`, for a delivery decision; nil when
    /// the uid controls none of its conversations (cheap: most uids control none).
    func conversationControl(uid: UInt32, app: String, conversationIdentifier: String, now: Date) -> ConversationControls.Control? {
        guard conversations.byUID[uid] != nil, conversationIdentifier.utf8.count <= ConversationControls.maxIdentifierBytes else { return nil }
        return conversations.control(uid: uid, key: ConversationControls.Key(app: app, conversationIdentifier: conversationIdentifier), now: now)
    }

    private static func muteEnd(_ mute: ConversationMute, now: Date) throws(RuleError) -> ConversationControls.Control.Mute {
        let limit = Int(maxConversationMuteSeconds)
        switch (mute.seconds, mute.until, mute.forever) {
        case (let seconds?, nil, nil):
            guard seconds.isFinite, seconds > 0, seconds <= maxConversationMuteSeconds else {
                throw RuleError(
                    .invalidParams, "seconds is how long to mute, more than 0 and at most \(limit) (a year; longer is forever: true); got \(DurationText.number(seconds)).",
                    at: ["mute", "seconds"], limit: limit)
            }
            return .until(now + seconds)
        case (nil, let time?, nil):
            guard time > now, time.timeIntervalSince(now) <= maxConversationMuteSeconds else {
                throw RuleError(
                    .invalidParams, "until is when the mute ends: later than now and at most a year ahead (longer is forever: true).",
                    at: ["mute", "until"], limit: limit)
            }
            return .until(time)
        case (nil, nil, true?):
            return .forever
        case (nil, nil, false?):
            throw .invalidParams("forever is true or left out; to unmute, give unmute: true.", at: ["mute", "forever"])
        case (nil, nil, nil):
            throw .invalidParams("Say how long to mute: seconds, until a time, or forever: true.", at: ["mute", "seconds"])
        default:
            throw .invalidParams("Give one of seconds, until and forever, not more.", at: ["mute", mute.forever != nil ? "forever" : "until"])
        }
    }

    private static func muteText(_ mute: ConversationControls.Control.Mute) -> String {
        switch mute {
        case .until(let end): "mute=\(RFC3339.format(end))"
        case .forever: "mute=forever"
        }
    }

    static func wire(_ control: ConversationControls.Control, key: ConversationControls.Key) -> ConversationControl {
        var wire = ConversationControl(app: key.app, conversationIdentifier: key.conversationIdentifier, priority: control.priority)
        switch control.mute {
        case .until(let end)?:
            wire.muted = true
            wire.mutedUntil = end
        case .forever?:
            wire.muted = true
        case nil:
            break
        }
        return wire
    }
}

// MARK: Snapshot

extension HeraldState {
    /// One uid's control of one conversation, as a snapshot keeps it.
    package struct StoredConversation: Sendable, Hashable {
        package var uid: UInt32
        package var app: String
        package var conversationIdentifier: String
        /// When a mute for a while ends (it may have ended: a restore keeps it, and reads
        /// compare it with now).
        package var mutedUntil: Date?
        package var mutedForever: Bool
        package var priority: Bool

        package init(uid: UInt32, app: String, conversationIdentifier: String, mutedUntil: Date? = nil, mutedForever: Bool = false, priority: Bool = false) {
            self.uid = uid
            self.app = app
            self.conversationIdentifier = conversationIdentifier
            self.mutedUntil = mutedUntil
            self.mutedForever = mutedForever
            self.priority = priority
        }
    }

    /// Every uid's controlled conversations, by uid, app and conversation.
    package var storedConversations: [StoredConversation] {
        conversations.all.map { uid, key, control in
            var stored = StoredConversation(uid: uid, app: key.app, conversationIdentifier: key.conversationIdentifier, priority: control.priority)
            switch control.mute {
            case .until(let end)?: stored.mutedUntil = end
            case .forever?: stored.mutedForever = true
            case nil: break
            }
            return stored
        }
    }

    /// False when a conversation is listed twice, is muted both ways, or is neither muted
    /// nor priority.
    package mutating func restoreConversations(_ stored: [StoredConversation]) -> Bool {
        var restored = ConversationControls()
        for entry in stored {
            guard !(entry.mutedForever && entry.mutedUntil != nil) else { return false }
            let mute: ConversationControls.Control.Mute? = entry.mutedForever ? .forever : entry.mutedUntil.map { .until($0) }
            let key = ConversationControls.Key(app: entry.app, conversationIdentifier: entry.conversationIdentifier)
            guard restored.restore(ConversationControls.Control(mute: mute, priority: entry.priority), uid: entry.uid, key: key) else { return false }
        }
        conversations = restored
        return true
    }
}
