import FoundationEssentials
import HeraldProtocol

/// Holds of a Focus (`hold-focus`, `release-focus-hold`): a Focus kept on while something
/// runs, as KDE's fullscreen, swaync's inhibitors and screen mirroring do (issue 45).
///
/// A caller holds its own uid's Focuses only. The server releases a connection's holds
/// when it closes; these rules know a hold by its identifier alone.
extension HeraldState {
    /// `hold-focus`: takes the hold `id` of the defined Focus `p.name` for the caller,
    /// whose command name is `command`. The Focus is on from now; the result is it.
    package mutating func holdFocus(
        _ p: HoldFocusParams, caller: Caller, id: String, command: String?, now: Date
    ) throws(RuleError) -> MethodOutcome<HoldFocusResult> {
        let uid = caller.uid
        guard focuses[uid].definitions[p.name] != nil else {
            throw .invalidParams(
                "This uid has no Focus named \(p.name); define it first (define-focus, or heraldctl focus define).", at: ["name"])
        }
        if let reason = p.reason, reason.utf8.count > HoldFocusParams.maxReasonBytes {
            throw RuleError(
                .invalidParams, "A hold's reason is at most \(HoldFocusParams.maxReasonBytes) bytes of UTF-8.", at: ["reason"],
                limit: HoldFocusParams.maxReasonBytes)
        }
        guard focuses[uid].holds.count < FocusHold.maxPerUID else {
            throw RuleError(
                .invalidParams,
                "This uid holds \(FocusHold.maxPerUID) Focus holds already, the most it may; end one first (close its connection, or release-focus-hold).",
                at: ["name"], limit: FocusHold.maxPerUID)
        }
        advanceFocus(uid: uid, now: now)
        let hold = FocusHold(id: id, name: p.name, reason: p.reason, pid: caller.pid, command: command, since: now)
        let zone = self.zone
        focuses.update(uid) { state, activations in
            ((), state.hold(hold, at: now, zone: zone, activations: &activations))
        }
        return MethodOutcome(result: HoldFocusResult(hold: id, focus: focuses[uid].currentConfiguration), audit: AuditRecord())
    }

    /// `release-focus-hold`: ends the caller's uid's hold `p.hold`; the result is the
    /// Focus in effect after.
    package mutating func releaseFocusHold(
        _ p: ReleaseFocusHoldParams, caller: Caller, now: Date
    ) throws(RuleError) -> MethodOutcome<SetFocusResult> {
        let uid = caller.uid
        let zone = self.zone
        let found = focuses.update(uid) { state, activations in
            let change = state.release(p.hold, at: now, zone: zone, activations: &activations)
            return (change != nil, change ?? nil)
        }
        guard found else {
            throw .invalidParams("This uid has no Focus hold \(p.hold); it ended already, or another uid holds it.", at: ["hold"])
        }
        return MethodOutcome(result: SetFocusResult(focus: focuses[uid].currentConfiguration), audit: AuditRecord())
    }

    /// `uid`'s holds standing, oldest first.
    package func focusHolds(uid: UInt32) -> [FocusHoldInfo] {
        focuses[uid].holds.map(\.wire)
    }

    /// Ends every hold of every uid, as their connections' close would: at start, after the
    /// change log replayed holds whose heraldd stopped. Whether there was one.
    package mutating func releaseEveryFocusHold(now: Date) -> Bool {
        let held = focuses.byUID.filter { !$0.value.holds.isEmpty }.mapValues { $0.holds.map(\.id) }
        let zone = self.zone
        for (uid, ids) in held {
            for id in ids {
                focuses.update(uid) { state, activations in
                    ((), state.release(id, at: now, zone: zone, activations: &activations) ?? nil)
                }
            }
        }
        return !held.isEmpty
    }
}
