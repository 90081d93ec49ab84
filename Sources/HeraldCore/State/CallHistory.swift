import FoundationEssentials
import HeraldProtocol

/// Incoming calls by caller, so that a repeated call is found without a scan.
///
/// A call is filed under every identity key of its caller (its first contact), per
/// (uid, app): one app's calls never make another's repeated, and one uid's never
/// another's. Derived from the stored interactions, so a snapshot need not carry it.
struct CallHistory: Sendable {
    private struct Key: Hashable, Sendable {
        var uid: UInt32
        var app: AppNameTable.ID
        var caller: String
    }

    /// Each caller's calls: their dates by identifier, so that forgetting one (at every
    /// eviction of a uid at its limit) costs O(1), not a scan of the caller's calls.
    private var calls: [Key: [String: Date]] = [:]
    /// The apps each (uid, caller identity) called through, with how many calls: so that
    /// "a repeated call from another app" looks at that caller's apps only.
    private var apps: [CallerKey: [AppNameTable.ID: Int]] = [:]

    private struct CallerKey: Hashable, Sendable {
        var uid: UInt32
        var caller: String
    }

    init() {}

    /// Files `stored` if it is an incoming call.
    mutating func record(_ stored: StoredInteraction, at key: InteractionKey) {
        guard stored.record.isIncomingCall, let caller = Self.caller(of: stored.interaction) else { return }
        let date = stored.effectiveDate
        for identity in PersonIdentity.keys(of: caller) {
            let callKey = Key(uid: key.uid, app: key.app, caller: identity)
            if calls[callKey, default: [:]].updateValue(date, forKey: key.identifier) == nil {
                apps[CallerKey(uid: key.uid, caller: identity), default: [:]][key.app, default: 0] += 1
            }
        }
    }

    /// Forgets `stored` when it is deleted, evicted or expired.
    mutating func forget(_ stored: StoredInteraction, at key: InteractionKey) {
        guard stored.record.isIncomingCall, let caller = Self.caller(of: stored.interaction) else { return }
        for identity in PersonIdentity.keys(of: caller) {
            let callKey = Key(uid: key.uid, app: key.app, caller: identity)
            guard calls[callKey]?.removeValue(forKey: key.identifier) != nil else { continue }
            if calls[callKey]?.isEmpty == true {
                calls.removeValue(forKey: callKey)
            }
            let callerKey = CallerKey(uid: key.uid, caller: identity)
            apps[callerKey]?[key.app, default: 1] -= 1
            if apps[callerKey]?[key.app] == 0 { apps[callerKey]?.removeValue(forKey: key.app) }
            if apps[callerKey]?.isEmpty == true { apps.removeValue(forKey: callerKey) }
        }
    }

    /// Whether the caller of the call at `key` made another incoming call dated within
    /// `window` seconds before (or at) `date`: through the same app, or with `inAnotherApp`
    /// through another app of the same uid (which does not make a repeated call, but a
    /// reason can say so).
    func hasEarlierCall(
        than key: InteractionKey, caller: Person, date: Date, window: TimeInterval, inAnotherApp: Bool = false
    ) -> Bool {
        for identity in PersonIdentity.keys(of: caller) {
            let appsCalled = inAnotherApp ? (apps[CallerKey(uid: key.uid, caller: identity)] ?? [:]).keys.filter { $0 != key.app } : [key.app]
            for app in appsCalled {
                let earlier = calls[Key(uid: key.uid, app: app, caller: identity)] ?? [:]
                if earlier.contains(where: { identifier, earlierDate in
                    (app != key.app || identifier != key.identifier) && earlierDate <= date && date.timeIntervalSince(earlierDate) <= window
                }) {
                    return true
                }
            }
        }
        return false
    }

    /// Whether `stored` is filed here: an incoming call (whose first contact is its caller;
    /// a call has one at least), read from its record's flags without decoding it.
    static func isFiled(_ stored: StoredInteraction) -> Bool {
        stored.record.isIncomingCall
    }

    /// The caller of an incoming call: its first contact.
    static func caller(of interaction: Interaction) -> Person? {
        guard interaction.direction == .incoming, case .startCall(let call) = interaction.intent else { return nil }
        return call.contacts.first
    }
}
