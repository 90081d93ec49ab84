import FoundationEssentials
import HeraldProtocol

/// Standing grants (``StandingGrants``): heraldd's own rules, run ahead on an app's plain
/// notification, so that the person's gateway shows the app's next ones before asking.
/// heraldd stays the one that decides: each notification shown under a grant is decided
/// again as it arrives, and recorded as what it is.
///
/// The plain kind (herald-notify's to tell apart; docs/operations.md names it): of urgency
/// normal (`active`), no message or call category, no actions, replacing nothing.
extension HeraldState {
    /// How much earlier than its due change a grant ends: the gateway's notification takes
    /// a moment to arrive, and must arrive before the change.
    static let grantMargin: TimeInterval = 1

    /// A new grant for `app`'s plain notifications to `holder` (the uid's own gateway's
    /// connection), or nil when the rules would not deliver the next one as an alert —
    /// a Focus silences the app, the summary holds it — or a revocation is under way, or a
    /// Focus hold stands (its end, when its connection closes, cannot wait for the gateway).
    package mutating func renewGrant(uid: UInt32, app: String, holder: UInt64, now: Date) -> StandingGrant? {
        standingGrants.drop(uid: uid, app: app)
        guard standingGrants.mayIssue(uid: uid), focuses[uid].holds.isEmpty else { return nil }
        let delivery = appDecision(uid: uid, app: app, level: .active, timeSensitivePermitted: false, now: now).decide()
        guard delivery.presentation == .alert, delivery.sound else { return nil }
        // Until the next change due (a Focus schedule or end, a summary, a snooze's end …).
        var ends = nextDue.map { $0.timeIntervalSince(now) - Self.grantMargin } ?? .infinity
        let alerts = StandingGrants.maximumAlerts
        var soundAlerts = alerts
        let window = TimeInterval(cooldowns.seconds(uid: uid))
        if window > 0 {
            // The first alert starts a burst and sounds; each next one within the window
            // of the one before is cooled. A grant shorter than the window keeps every
            // arrival under it within the window of the one before.
            let source = BurstCooldowns.Source(app: app, conversationIdentifier: nil)
            if let last = cooldowns.lastArrival(uid: uid, source: source), now.timeIntervalSince(last) < window {
                soundAlerts = 0
                ends = min(ends, last.timeIntervalSince(now) + window - Self.grantMargin)
            } else {
                soundAlerts = 1
                ends = min(ends, window - Self.grantMargin)
            }
        }
        guard ends >= Self.grantMargin else { return nil }
        let seconds = min(ends, 3600)
        let id = standingGrants.issue(
            uid: uid, app: app, connection: holder, alerts: alerts, soundAlerts: soundAlerts, endsAt: now.addingTimeInterval(seconds))
        return StandingGrant(id: id, app: app, alerts: alerts, soundAlerts: soundAlerts, seconds: seconds)
    }

    /// `app`'s notification of another kind went through heraldd: its grant goes, as the
    /// gateway dropped it when sending it.
    package mutating func dropGrant(uid: UInt32, app: String) {
        standingGrants.drop(uid: uid, app: app)
    }

    /// A notification the gateway showed under a grant (`use`), decided as `delivery`:
    /// whether the decision is what was shown — an alert, with sound or cooled as shown.
    /// When it is, its explanation says the grant decided it.
    mutating func settleGrant(_ use: GrantUse, uid: UInt32, app: String, delivery: inout Delivery, audit: inout AuditRecord, now: Date) -> Bool {
        let current = standingGrants.use(uid: uid, app: app, id: use.id, sound: use.sound, now: now)
        let honoured = delivery.presentation == .alert && delivery.sound == use.sound
        audit.grant = use.id
        audit.grantHonoured = honoured
        if honoured, let last = delivery.reasons.indices.last {
            let how = current ? "" : ", revoked before it arrived, and its decision the same"
            delivery.reasons[last].message += " Decided by the gateway's standing grant \(use.id)\(how)."
        }
        return honoured
    }

    /// Starts a revocation of `uid`'s grants (every uid's when nil) before a change of it:
    /// the holders to tell, and the uids to end it for once the change is applied.
    package mutating func revokeGrants(uid: UInt32?) -> GrantRevocation {
        standingGrants.revoke(uid: uid)
    }

    package mutating func endGrantRevocation(_ revocation: GrantRevocation) {
        standingGrants.endRevocation(revocation)
    }

    /// The gateway's connection `connection` closed: its grants go.
    package mutating func dropGrantHolder(connection: UInt64) {
        standingGrants.dropHolder(connection: connection)
    }

    /// Whether a change of `uid` (of every uid, nil) must first revoke a gateway's grants.
    package func hasGrantHolder(uid: UInt32?) -> Bool {
        standingGrants.hasHolder(uid: uid)
    }

    /// How many uids have a gateway that holds (or held) grants: zero on a desktop whose
    /// gateway holds none, where no change waits for a revocation.
    package var grantHolderCount: Int {
        standingGrants.holders.count
    }

    /// `uid`'s grants outstanding.
    package func grantCount(uid: UInt32) -> Int {
        standingGrants.grantCount(uid: uid)
    }
}

extension HeraldState {
    /// Whether `connection` is a gateway that holds (or held) grants: its own requests come
    /// in order with its use of them, and revoke nothing.
    package func holdsGrants(connection: UInt64) -> Bool {
        standingGrants.holders.values.contains { $0.connection == connection }
    }
}
