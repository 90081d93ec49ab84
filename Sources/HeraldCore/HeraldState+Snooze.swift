import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// The longest a notification may be put off: past it, `--retention` would forget
    /// what the person meant to come back to.
    package static let maxSnoozeSeconds: Double = 30 * 86_400

    /// `snooze-notification`: puts the caller's (an administrator's: `uid`'s) delivered
    /// notification off for `seconds` or until `until`. Returns the removal the presenters
    /// are told of, so that they take it down until it comes back.
    package mutating func snoozeNotification(_ p: SnoozeNotificationParams, caller: Caller, now: Date) throws(RuleError)
        -> (outcome: MethodOutcome<SnoozeNotificationResult>, removed: NotificationsRemoved)
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        try AppName.validate(p.app)
        _ = try NotificationIdentifier.validated(p.identifier, at: ["identifier"])
        let until: Date
        switch (p.seconds, p.until) {
        case (let seconds?, nil):
            guard seconds.isFinite, seconds > 0, seconds <= Self.maxSnoozeSeconds else {
                throw RuleError(
                    .invalidParams, "seconds is how long to snooze, more than 0 and at most \(Int(Self.maxSnoozeSeconds)) (30 days); got \(DurationText.number(seconds)).",
                    at: ["seconds"], limit: Int(Self.maxSnoozeSeconds))
            }
            until = now + seconds
        case (nil, let time?):
            guard time > now, time.timeIntervalSince(now) <= Self.maxSnoozeSeconds else {
                throw RuleError(
                    .invalidParams, "until is when the notification comes back: later than now and at most 30 days ahead.", at: ["until"],
                    limit: Int(Self.maxSnoozeSeconds))
            }
            until = time
        case (nil, nil):
            throw .invalidParams("Say how long to snooze: seconds, or until a time.", at: ["seconds"])
        case (_?, _?):
            throw .invalidParams("Give seconds or until, not both.", at: ["until"])
        }
        _ = try notifications.snooze(uid: uid, app: p.app, identifier: p.identifier, until: until)
        var audit = AuditRecord(app: p.app)
        audit.notificationIdentifiers = [p.identifier]
        return (
            MethodOutcome(result: SnoozeNotificationResult(snoozedUntil: until), audit: audit),
            NotificationsRemoved(uid: uid, app: p.app, identifiers: [p.identifier])
        )
    }

    /// Delivers again the snoozed notifications whose time has come by `now`, each as its
    /// uid's presenters show it: with its actions, and quiet when a Focus is on now that
    /// its delivery does not break through — in the list as well as to presenters, so that
    /// list-notifications says how it came back. Empty when none is due (cheap: the
    /// earliest end is kept).
    package mutating func returnDueSnoozed(now: Date) -> [NotificationDelivered] {
        guard let earliest = notifications.earliestSnoozeEnd, earliest <= now else { return [] }
        var focusOn: [UInt32: String] = [:]
        for uid in notifications.uidsWithSnoozes(dueBy: now) {
            advanceFocus(uid: uid, now: now)
            if let focus = focuses[uid].currentConfiguration { focusOn[uid] = focus.name }
        }
        let reason = DeliveryReason(code: .snoozeEnded, message: "You snoozed this notification, and its time has come: delivered again.")
        let returned = notifications.returnDueSnoozed(now: now, reason: reason) { uid, delivery in
            guard let name = focusOn[uid], !delivery.breaksThroughFocus, delivery.presentation == .alert else { return false }
            delivery.presentation = .quiet
            delivery.sound = false
            delivery.lightsScreen = false
            delivery.reasons.insert(
                DeliveryReason(code: .silencedByFocus, message: "\(name) is on and did not allow this notification when it first came, so it comes back quietly."),
                at: 1)
            return true
        }
        return returned.map { uid, notification, quieted in
            if quieted { countSilencedByFocus(notification, uid: uid, now: now) }
            return NotificationDelivered(uid: uid, notification: presented(notification, uid: uid))
        }
    }
}
