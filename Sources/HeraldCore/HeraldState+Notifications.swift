import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// How many notifications every uid's list holds together.
    package var notificationCount: Int { notifications.count }

    /// Delivered notifications evicted at `--max-notifications`, and forgotten by
    /// `--retention`, since this value was made.
    package var notificationsDropped: (evicted: Int, expired: Int) { (notifications.evicted, notifications.expired) }

    /// (uid, app, identifier)'s notification, for the presenters told of it.
    package func notification(uid: UInt32, app: String, identifier: String) -> HeraldNotification? {
        notifications.notification(uid: uid, app: app, identifier: identifier)
    }

    /// `remove-notifications`: removes the caller's (an administrator's: `uid`'s)
    /// notifications, delivered and scheduled alike. Another uid's identifiers are not in
    /// the caller's list, so they count 0 as identifiers never used do.
    ///
    /// Returns the removals by app too, for the presenters.
    package mutating func removeNotifications(_ p: RemoveNotificationsParams, caller: Caller) throws(RuleError)
        -> (outcome: MethodOutcome<RemoveNotificationsResult>, removed: [NotificationsRemoved])
    {
        let uid = try Self.namespace(uid: p.uid, app: p.app, caller: caller, everyApp: p.all == true && p.identifiers == nil)
        let identifiers: [String]?
        switch (p.identifiers, p.all) {
        case (let given?, nil), (let given?, false?):
            guard p.app != nil else {
                throw .invalidParams("Name the app whose notifications these identifiers are.", at: ["app"])
            }
            for (index, identifier) in given.enumerated() {
                _ = try NotificationIdentifier.validated(identifier, at: ["identifiers", .index(index)])
            }
            identifiers = given
        case (nil, true?):
            identifiers = nil
        case (nil, _):
            throw .invalidParams("Give the identifiers to remove, or all: true.", at: ["identifiers"])
        case (_?, true?):
            throw .invalidParams("Give identifiers or all: true, not both.", at: ["all"])
        }
        let removed = notifications.remove(uid: uid, app: p.app, identifiers: identifiers)
        let events = removed.map { NotificationsRemoved(uid: uid, app: $0.app, identifiers: $0.identifiers) }
        var audit = AuditRecord(app: p.app)
        audit.notificationIdentifiers = removed.flatMap(\.identifiers)
        let count = removed.reduce(0) { $0 + $1.identifiers.count }
        return (MethodOutcome(result: RemoveNotificationsResult(removed: count), audit: audit), events)
    }

    /// `deliver-summary`: delivers every scheduled notification now — the upcoming summary
    /// opened early. A person delivers their own uid's (another uid is permission denied);
    /// an administrator `uid`'s, or every uid's without it.
    package mutating func deliverSummary(_ p: DeliverSummaryParams, caller: Caller, now: Date) throws(RuleError)
        -> (outcome: MethodOutcome<DeliverSummaryResult>, summaries: [NotificationSummary])
    {
        let uid = caller.isAdministrator ? p.uid : try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        let summaries = presented(notifications.deliverSummaries(now: now, uid: uid, all: true), now: now)
        var audit = AuditRecord()
        audit.notificationIdentifiers = summaries.flatMap { $0.notifications.map(\.identifier) }
        let count = summaries.reduce(0) { $0 + $1.notifications.count }
        return (MethodOutcome(result: DeliverSummaryResult(delivered: count), audit: audit), summaries)
    }

    /// Delivers, one summary per uid, every scheduled notification whose summary time
    /// (`deliverAt`) has come by `now`: at each time of the schedule, and once at start for
    /// a time that passed while the daemon was stopped. Empty when none is due.
    package mutating func deliverDueSummaries(now: Date) -> [NotificationSummary] {
        presented(notifications.deliverSummaries(now: now), now: now)
    }

    /// Each summary's notifications with their categories' actions, as presenters get them;
    /// quiet, naming the Focus, when its uid has a Focus on (the Focus filters presentation).
    private mutating func presented(_ summaries: [NotificationSummary], now: Date) -> [NotificationSummary] {
        summaries.map { summary in
            var summary = summary
            summary.notifications = summary.notifications.map { presented($0, uid: summary.uid) }
            advanceFocus(uid: summary.uid, now: now)
            if let focus = focuses[summary.uid].currentConfiguration {
                summary.presentation = .quiet
                summary.focus = focus.name
            }
            return summary
        }
    }

    /// The uid a presenter (`subscribe-notifications`) presents: a non-administrator its
    /// own only (another is permission denied); an administrator any, or every uid (nil).
    package static func presenterUID(_ p: SubscribeNotificationsParams, caller: Caller) throws(RuleError) -> UInt32? {
        if caller.isAdministrator { return p.uid }
        return try ownerUID(p.uid, caller: caller) ?? caller.uid
    }

    /// The uid whose list a request acts on: the caller's own, or for an administrator the
    /// `uid` given. Only an administrator may omit the app (every app of the uid), or anyone
    /// for `everyApp` (`all: true`): the person clears their own list as `list-notifications`
    /// shows it, every app's. A verified app never gets here without naming itself (the
    /// method table refuses it first), and an unverified one could clear app by app anyway.
    static func namespace(uid: UInt32?, app: String?, caller: Caller, everyApp: Bool = false) throws(RuleError) -> UInt32 {
        let owner = try ownerUID(uid, caller: caller)
        if let app {
            try AppName.validate(app)
        } else if !caller.isAdministrator, !everyApp {
            throw .invalidParams("Name the app whose notifications these are.", at: ["app"])
        }
        return owner ?? caller.uid
    }

    /// `uid` when the caller may act on it: its own, or any for an administrator.
    package static func ownerUID(_ uid: UInt32?, caller: Caller) throws(RuleError) -> UInt32? {
        if let uid, uid != caller.uid, !caller.isAdministrator {
            throw RuleError(.permissionDenied, "Only administrators may name another uid; leave uid out for your own.", at: ["uid"])
        }
        return uid
    }
}
