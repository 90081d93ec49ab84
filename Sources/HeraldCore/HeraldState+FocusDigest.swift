import FoundationEssentials
import HeraldProtocol

/// "What you missed": the digest of what a uid's Focus silenced, made when it ends
/// (``FocusDigests``), for the presenters (`focus-digest`) and `get-focus-digest`.
extension HeraldState {
    /// `get-focus-digest`: the uid's last digest, and what the Focus on now has silenced so
    /// far. A person reads their own; an administrator any `uid`.
    package mutating func getFocusDigest(_ p: UIDParams, caller: Caller, now: Date) throws(RuleError) -> MethodOutcome<GetFocusDigestResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        advanceFocus(uid: uid, now: now)
        let digests = focuses.digests
        return MethodOutcome(
            result: GetFocusDigestResult(uid: uid, digest: digests.last[uid], running: digests.runningDigest(uid: uid)),
            audit: AuditRecord()
        )
    }

    /// Counts a notification delivered quietly because `uid`'s Focus is on
    /// (`silencedByFocus`), for that Focus's digest. One held for the summary is not
    /// counted: the summary tells of it.
    mutating func countSilencedByFocus(_ notification: HeraldNotification, uid: UInt32, now: Date) {
        guard notification.delivery.presentation != .summary,
            notification.delivery.reasons.contains(where: { $0.code == .silencedByFocus }),
            let current = focuses[uid].current
        else { return }
        focuses.digests.countSilenced(notification, uid: uid, activation: current.activation, focus: current.name, at: now)
    }

    /// The digests of Focuses that ended since the last call, oldest first, for the
    /// journal and the presenters; taken with ``takeFocusChanges()``.
    package mutating func takeFocusDigests() -> [FocusDigest] {
        focuses.digests.takePending()
    }

    // MARK: Snapshots

    /// Each uid's running tally (a digest so far, with its activation) and last digest.
    package var storedFocusDigests: (running: [(activation: UInt64, digest: FocusDigest)], last: [FocusDigest]) {
        focuses.digests.stored
    }

    /// False unless each uid comes once in each list, within the bounds, with counts that
    /// add up. Restored after the Focuses.
    package mutating func restoreFocusDigests(running: [(activation: UInt64, digest: FocusDigest)], last: [FocusDigest]) -> Bool {
        focuses.digests.restore(running: running, last: last)
    }
}
