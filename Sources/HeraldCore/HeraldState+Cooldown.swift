import FoundationEssentials
import HeraldProtocol

/// Each uid's burst cooldown (``BurstCooldowns``): `set-cooldown`, `get-cooldown`, and the
/// step of `update-content` that takes the sound off an alert in a burst. A caller acts on
/// its own uid; an administrator may name any `uid`.
extension HeraldState {
    /// `set-cooldown`: sets the uid's window, 0 (off) to 600 seconds.
    package mutating func setCooldown(_ p: SetCooldownParams, caller: Caller) throws(RuleError) -> MethodOutcome<CooldownResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        guard (0...BurstCooldowns.maxSeconds).contains(p.seconds) else {
            throw RuleError(
                .invalidParams, "seconds is the cooldown window, from 0 (off) to \(BurstCooldowns.maxSeconds) (10 minutes); got \(p.seconds).",
                at: ["seconds"], limit: BurstCooldowns.maxSeconds)
        }
        cooldowns.setSeconds(p.seconds, uid: uid)
        var audit = AuditRecord()
        audit.settingUID = uid
        audit.cooldownSeconds = p.seconds
        return MethodOutcome(result: CooldownResult(uid: uid, seconds: p.seconds), audit: audit)
    }

    /// `get-cooldown`: the uid's window (60 seconds until its person sets one).
    package func getCooldown(_ p: UIDParams, caller: Caller) throws(RuleError) -> MethodOutcome<CooldownResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        return MethodOutcome(result: CooldownResult(uid: uid, seconds: cooldowns.seconds(uid: uid)), audit: AuditRecord())
    }

    /// The cooldown step, after the decision: an alert whose source (`app`, and the
    /// conversation when it has one) alerted within the uid's window keeps its light and
    /// its place but loses its sound and its announcement, and says so (`cooledDown`).
    /// Anything else — quiet, held for the summary, critical, timeSensitive (`level`, unless
    /// the decision treated it as active), a repeated call (of `communication`) — is left
    /// as it is and does not count toward a burst.
    ///
    /// `communication` carries the interaction as the caller decoded it: the store keeps
    /// only its record, and decoding it again here would be a second decode under the lock.
    mutating func coolDown(
        _ delivery: inout Delivery, uid: UInt32, app: String, conversationIdentifier: String?, level: InterruptionLevel,
        communication: Communication?, now: Date
    ) {
        guard delivery.presentation == .alert, cooldowns.seconds(uid: uid) > 0 else { return }
        let exempt =
            switch level {
            case .critical: true
            case .timeSensitive where !delivery.reasons.contains(where: { $0.code == .timeSensitiveNotPermitted }): true
            default: communication.map { isRepeatedCall($0.key, $0.stored, $0.interaction) } ?? false
            }
        guard !exempt else { return }
        let source = BurstCooldowns.Source(app: app, conversationIdentifier: conversationIdentifier)
        guard
            let sentence = cooldowns.arrive(uid: uid, source: source, now: now, describe: { startedAt, window in
                let who = conversationIdentifier == nil ? "\(app) has" : "This conversation has"
                return "\(who) sent notifications in quick succession since \(RFC3339.format(startedAt)), each within \(window) seconds of the one before, so this one comes without sound; it alerts again once \(window) seconds pass without one (the burst cooldown, which set-cooldown changes)."
            })
        else { return }
        delivery.sound = false
        delivery.announce = false
        if let last = delivery.reasons.indices.last, delivery.reasons[last].code == .delivered {
            delivery.reasons[last].message = "Delivered as an alert, with light but without sound: cooled down."
        }
        delivery.reasons.append(DeliveryReason(code: .cooledDown, message: sentence))
    }

    /// Whether the stored interaction is an incoming call whose caller called through the
    /// same app within the repeated-call window (`--repeated-call-window`), as a Focus
    /// that allows repeated calls counts them. `interaction` is `stored`'s, decoded.
    func isRepeatedCall(_ key: InteractionKey, _ stored: StoredInteraction, _ interaction: Interaction) -> Bool {
        guard case .startCall(let call) = interaction.intent, let caller = call.contacts.first else { return false }
        return interactions.calls.hasEarlierCall(than: key, caller: caller, date: stored.effectiveDate, window: configuration.repeatedCallWindow)
    }

    /// The interaction a communication notification was made from: where the store keeps
    /// it, its stored record, and that record decoded once for every step that reads it.
    struct Communication {
        var key: InteractionKey
        var stored: StoredInteraction
        var interaction: Interaction
    }

    // MARK: Snapshots

    /// Each uid's window that differs from the default, by uid; the bursts are not kept.
    package var storedCooldowns: [(uid: UInt32, seconds: Int)] {
        cooldowns.storedWindows
    }

    /// False when a uid is listed twice or a window is out of range.
    package mutating func restoreCooldowns(_ stored: [(uid: UInt32, seconds: Int)]) -> Bool {
        var restored = BurstCooldowns()
        var seen: Set<UInt32> = []
        for (uid, seconds) in stored {
            guard seen.insert(uid).inserted, (0...BurstCooldowns.maxSeconds).contains(seconds) else { return false }
            restored.setSeconds(seconds, uid: uid)
        }
        cooldowns = restored
        return true
    }
}
