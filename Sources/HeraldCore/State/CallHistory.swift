import Foundation
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

    init() {}

    /// Files `stored` if it is an incoming call.
    mutating func record(_ stored: StoredInteraction, at key: InteractionKey) {
        guard let caller = Self.caller(of: stored.interaction) else { return }
        let date = stored.effectiveDate
        for identity in PersonIdentity.keys(of: caller) {
            calls[Key(uid: key.uid, app: key.app, caller: identity), default: [:]][key.identifier] = date
        }
    }

    /// Forgets `stored` when it is deleted, evicted or expired.
    mutating func forget(_ stored: StoredInteraction, at key: InteractionKey) {
        guard let caller = Self.caller(of: stored.interaction) else { return }
        for identity in PersonIdentity.keys(of: caller) {
            let callKey = Key(uid: key.uid, app: key.app, caller: identity)
            calls[callKey]?.removeValue(forKey: key.identifier)
            if calls[callKey]?.isEmpty == true {
                calls.removeValue(forKey: callKey)
            }
        }
    }

    /// Whether the caller of the call at `key` made another incoming call dated within
    /// `window` seconds before (or at) `date`.
    func hasEarlierCall(than key: InteractionKey, caller: Person, date: Date, window: TimeInterval) -> Bool {
        for identity in PersonIdentity.keys(of: caller) {
            let earlier = calls[Key(uid: key.uid, app: key.app, caller: identity)] ?? [:]
            if earlier.contains(where: { identifier, earlierDate in
                identifier != key.identifier && earlierDate <= date && date.timeIntervalSince(earlierDate) <= window
            }) {
                return true
            }
        }
        return false
    }

    /// The caller of an incoming call: its first contact.
    static func caller(of interaction: Interaction) -> Person? {
        guard interaction.direction == .incoming, case .startCall(let call) = interaction.intent else { return nil }
        return call.contacts.first
    }
}
