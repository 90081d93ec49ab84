import FoundationEssentials

/// When something in the state falls due by itself, with no request: the daemon sleeps
/// until then (docs/operations.md, "At rest").
extension HeraldState {
    /// The earliest of: a uid's Focus change (an `until`, a schedule's start or end), a
    /// summary time, a snooze's end, and an expiry (`--retention` of an interaction, a
    /// delivered notification or a waiting response; `--undo-window` of a removal). Nil
    /// when nothing is due. Possibly early, never late: each part is a lower bound that
    /// the work it is due for makes exact again. Costs a look at each uid.
    package var nextDue: Date? {
        var next = nextStoredDue
        Self.lower(&next, to: focuses.nextChange)
        Self.lower(&next, to: notifications.oldestDeliveredAt.map { $0 + configuration.retention })
        return next
    }

    /// The part of ``nextDue`` kept up to date by every change, read in constant time after
    /// each one so that a change due sooner than the daemon's sleep ends it: summary times,
    /// snooze ends, and the expiry of interactions, responses and removals. The methods
    /// that change a Focus tell its next change themselves; a notification delivered while
    /// none was expires, at worst, after the daemon's longest sleep.
    package var nextStoredDue: Date? {
        var next = notifications.earliestDeliverAt
        Self.lower(&next, to: notifications.earliestSnoozeEnd)
        Self.lower(&next, to: interactions.earliestDonation.map { $0 + configuration.retention })
        Self.lower(&next, to: pendingResponses.earliest.map { $0 + configuration.retention })
        Self.lower(&next, to: recentlyRemoved.earliest.map { $0 + configuration.undoWindow })
        return next
    }

    /// The earliest thing due that a person would see happen: a Focus change, a summary
    /// time, a snooze's end. An expiry only forgets, and is not counted. `--exit-idle-time`
    /// waits for one due within it, so that it is done (and journalled) on time; one due
    /// later is done at the next start, before the first answer.
    package var nextEventDue: Date? {
        var next = focuses.nextChange
        Self.lower(&next, to: notifications.earliestDeliverAt)
        Self.lower(&next, to: notifications.earliestSnoozeEnd)
        return next
    }

    private static func lower(_ next: inout Date?, to candidate: Date?) {
        guard let candidate else { return }
        next = min(next ?? candidate, candidate)
    }
}
