import FoundationEssentials

/// The conversations each uid muted or marked priority (`set-conversation`), by app and
/// conversation identifier.
///
/// A mute for a while ends by itself: whoever reads one compares its end with now, so no
/// timer is needed, and an ended mute counts as none (`control(uid:key:now:)`). A uid
/// holds at most `--max-conversations-per-uid` controls; an entry that mutes nothing
/// any more and is not priority is dropped when its uid changes a conversation.
///
/// A controlled conversation's identifier is at most ``maxIdentifierBytes``, and keys are
/// hashed, compared and ordered by their UTF-8 bytes: Swift's `String` compares by
/// canonical equivalence, normalizing text beyond ASCII on every hash and comparison, and
/// an identifier of combining marks made that super-linear under the state's lock
/// (issue 49: 1,000 identifiers of 16 KB held it 185 ms a `list-conversations`).
struct ConversationControls: Sendable {
    /// The longest conversation identifier a uid may control, as a digest counts a longer
    /// one as its app's (``FocusDigests/maxConversationIdentifierBytes``).
    static let maxIdentifierBytes = 256

    struct Key: Hashable, Sendable, Comparable {
        var app: String
        var conversationIdentifier: String

        static func == (a: Key, b: Key) -> Bool {
            a.app.utf8.elementsEqual(b.app.utf8) && a.conversationIdentifier.utf8.elementsEqual(b.conversationIdentifier.utf8)
        }

        /// By app, then conversation, each by its bytes (for UTF-8, the order of code points).
        static func < (a: Key, b: Key) -> Bool {
            if !a.app.utf8.elementsEqual(b.app.utf8) { return a.app.utf8.lexicographicallyPrecedes(b.app.utf8) }
            return a.conversationIdentifier.utf8.lexicographicallyPrecedes(b.conversationIdentifier.utf8)
        }

        func hash(into hasher: inout Hasher) {
            for text in [app, conversationIdentifier] {
                var text = text
                text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(0xFF as UInt8)  // no UTF-8 byte: the two never run together
            }
        }
    }

    /// What the person decided about one conversation.
    struct Control: Sendable, Hashable {
        enum Mute: Sendable, Hashable {
            case until(Date)
            case forever
        }

        var mute: Mute?
        var priority = false

        /// The mute in effect at `now`: nil when none, or when its time has come.
        func mute(at now: Date) -> Mute? {
            if case .until(let end) = mute, end <= now { return nil }
            return mute
        }

        /// Whether it still decides anything at `now`.
        func isInEffect(at now: Date) -> Bool {
            priority || mute(at: now) != nil
        }

        /// As of `now`: an ended mute dropped.
        func current(at now: Date) -> Control {
            Control(mute: mute(at: now), priority: priority)
        }
    }

    private(set) var byUID: [UInt32: [Key: Control]] = [:]

    /// `uid`'s control of the conversation as of `now`; nil when it decides nothing.
    func control(uid: UInt32, key: Key, now: Date) -> Control? {
        guard let controls = byUID[uid], let control = controls[key], control.isInEffect(at: now) else { return nil }
        return control.current(at: now)
    }

    /// `uid`'s controls still in effect at `now`, sorted by app then conversation.
    func sorted(uid: UInt32, now: Date) -> [(key: Key, control: Control)] {
        (byUID[uid] ?? [:]).filter { $0.value.isInEffect(at: now) }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value.current(at: now)) }
    }

    /// Sets `uid`'s control of the conversation (one that decides nothing at `now` removes
    /// it), after dropping the uid's ended ones; false, and nothing changed, when it would
    /// be the uid's `limit` + 1st.
    mutating func set(_ control: Control, uid: UInt32, key: Key, now: Date, limit: Int) -> Bool {
        var controls = byUID.removeValue(forKey: uid) ?? [:]
        defer { byUID[uid] = controls.isEmpty ? nil : controls }
        // Rebuilt only when one has ended: a rebuild hashes every key again.
        if controls.values.contains(where: { !$0.isInEffect(at: now) }) {
            controls = controls.filter { $0.value.isInEffect(at: now) }
        }
        guard control.isInEffect(at: now) else {
            controls[key] = nil
            return true
        }
        guard controls[key] != nil || controls.count < max(limit, 0) else { return false }
        controls[key] = control
        return true
    }

    /// Every uid's controls, ended ones included, by uid then key: what a snapshot keeps.
    var all: [(uid: UInt32, key: Key, control: Control)] {
        byUID.keys.sorted().flatMap { uid in
            byUID[uid]!.sorted { $0.key < $1.key }.map { (uid, $0.key, $0.value) }
        }
    }

    /// Restores a control as a snapshot held it; false when it is there already, or
    /// decides nothing (neither a mute nor priority). One of an identifier longer than
    /// ``maxIdentifierBytes`` (a snapshot of a build without the bound) is dropped alone.
    mutating func restore(_ control: Control, uid: UInt32, key: Key) -> Bool {
        guard key.conversationIdentifier.utf8.count <= Self.maxIdentifierBytes else { return true }
        guard control.priority || control.mute != nil, byUID[uid]?[key] == nil else { return false }
        byUID[uid, default: [:]][key] = control
        return true
    }
}
