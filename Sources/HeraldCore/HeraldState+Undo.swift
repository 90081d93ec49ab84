import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// The most bytes one uid's removed notifications keep: a quarter of what its list may
    /// hold, so that undo never costs more than a part of the list it restores into.
    var undoByteLimit: Int { max(1, configuration.maxNotificationBytesPerUID / 4) }

    /// `remove-notifications` as the server calls it: removes, and when the person removed
    /// them — a caller without a verified app identity, their presenter or `heraldctl`, or
    /// an administrator for them — keeps them for `--undo-window` as one removal that
    /// `restore-notifications` can undo. An app withdrawing its own notification is not
    /// undoable: the app took it back, and the person never saw it go.
    package mutating func removeNotifications(_ p: RemoveNotificationsParams, caller: Caller, now: Date) throws(RuleError)
        -> (outcome: MethodOutcome<RemoveNotificationsResult>, removed: [NotificationsRemoved])
    {
        guard caller.app == nil, configuration.undoWindow > 0 else { return try removeNotifications(p, caller: caller) }
        let uid = try Self.namespace(uid: p.uid, app: p.app, caller: caller, everyApp: p.all == true && p.identifiers == nil)
        let candidates: [HeraldNotification]
        if p.all == true, p.identifiers == nil {
            // The newest the store keeps, oldest received first.
            candidates = notifications.newestFirst(uid: uid, app: p.app, state: nil, after: nil)
                .prefix(RecentlyRemoved.maxPerUID).map(\.notification).reversed()
        } else if let app = p.app, let identifiers = p.identifiers {
            candidates = identifiers.compactMap { notifications.notification(uid: uid, app: app, identifier: $0) }
        } else {
            candidates = []
        }
        let result = try removeNotifications(p, caller: caller)
        var gone = Set(result.removed.flatMap { event in event.identifiers.map { [event.app, $0] } })
        let kept = candidates.filter { gone.remove([$0.app, $0.identifier]) != nil }
        recentlyRemoved.prune(now: now, window: configuration.undoWindow)
        recentlyRemoved.keep(kept, uid: uid, now: now, byteLimit: undoByteLimit)
        return result
    }

    /// `restore-notifications`: puts back the caller's (an administrator's: `uid`'s)
    /// notifications removed within `--undo-window` — those named, or without names the
    /// last removal — each as it was: same identifier, `receivedAt`, `deliveredAt` and state,
    /// so it lists in its place. A delivered one comes back without sound, presented as
    /// today's Focus, mutes and cooldown decide (``restoredDelivery(of:uid:now:)``), with
    /// reason `restored` first, and is returned for the presenters to show again with its
    /// category's actions (a quiet one as they show quiet ones); a scheduled one waits for
    /// its summary again, a snoozed one for its time.
    ///
    /// One the app posted again meanwhile (its identifier is in the list) is not restored:
    /// the app's newer notification stands. Past the window a removal is gone for good.
    ///
    /// One the list has no room for (full of notifications held for the summary, or too
    /// heavy beside them) stays restorable, in its removal, as it was; when none could go
    /// back, the call is refused with the list's reason, so that an undo never answers
    /// `restored: 0` and loses the removal.
    package mutating func restoreNotifications(_ p: RestoreNotificationsParams, caller: Caller, now: Date) throws(RuleError)
        -> (outcome: MethodOutcome<RestoreNotificationsResult>, delivered: [NotificationDelivered])
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        recentlyRemoved.prune(now: now, window: configuration.undoWindow)
        let taken: [RecentlyRemoved.Removal]
        switch (p.app, p.identifiers) {
        case (nil, nil):
            taken = recentlyRemoved.takeLast(uid: uid)
        case (let app?, let identifiers?):
            try AppName.validate(app)
            guard !identifiers.isEmpty else {
                throw .invalidParams("Give at least one identifier, or leave app and identifiers out to undo the last removal.", at: ["identifiers"])
            }
            let most = RestoreNotificationsParams.maximumIdentifiers
            guard identifiers.count <= most else {
                throw RuleError(
                    .invalidParams,
                    "identifiers names \(identifiers.count) notifications; a uid keeps at most \(most) removed, so name at most \(most) a call.",
                    at: ["identifiers"], limit: most)
            }
            for (index, identifier) in identifiers.enumerated() {
                _ = try NotificationIdentifier.validated(identifier, at: ["identifiers", .index(index)])
            }
            taken = recentlyRemoved.take(uid: uid, app: app, identifiers: identifiers)
        case (_?, nil):
            throw .invalidParams("Give the identifiers to restore with the app, or leave both out to undo the last removal.", at: ["identifiers"])
        case (nil, _?):
            throw .invalidParams("Name the app whose notifications these identifiers are.", at: ["app"])
        }
        advanceFocus(uid: uid, now: now)
        var restored: [String] = []
        var delivered: [NotificationDelivered] = []
        var refused: (removals: [RecentlyRemoved.Removal], first: RuleError?) = ([], nil)
        for removal in taken {
            var notification = removal.notification
            guard self.notifications.notification(uid: uid, app: notification.app, identifier: notification.identifier) == nil else { continue }
            if notification.state == .delivered {
                notification.delivery = restoredDelivery(of: notification, uid: uid, now: now)
            }
            do {
                try self.notifications.insert(
                    notification, uid: uid, limit: configuration.maxNotificationsPerUID, byteLimit: configuration.maxNotificationBytesPerUID)
            } catch {
                // The list is full of scheduled ones, or too heavy beside them.
                refused.removals.append(removal)
                refused.first = refused.first ?? error
                continue
            }
            restored.append(notification.identifier)
            if notification.state == .delivered {
                let silencedBefore = removal.notification.delivery.reasons.contains { $0.code == .silencedByFocus }
                let received = removal.notification.deliveredAt ?? removal.notification.receivedAt
                // Counted once: not again if this activation silenced it when it came.
                if !(silencedBefore && focuses.digests.hasCounted(uid: uid, silencedAt: received)) {
                    countSilencedByFocus(notification, uid: uid, now: now)
                }
                delivered.append(NotificationDelivered(uid: uid, notification: presented(notification, uid: uid)))
            }
        }
        recentlyRemoved.putBack(refused.removals, uid: uid)
        if restored.isEmpty, let error = refused.first {
            throw Self.undoRefused(error, count: refused.removals.count, at: p.identifiers == nil ? [] : ["identifiers"])
        }
        var audit = AuditRecord(app: p.app)
        audit.notificationIdentifiers = restored
        return (MethodOutcome(result: RestoreNotificationsResult(restored: restored.count), audit: audit), delivered)
    }

    /// Why an undo put nothing back: the list's own refusal (`--max-notifications` or
    /// `--max-notification-bytes` beside the scheduled ones), its limit, and what is kept.
    /// Built from counts only, never from a notification's text.
    private static func undoRefused(_ error: RuleError, count: Int, at path: MemberPath) -> RuleError {
        let what = count == 1 ? "The removed notification could not go back." : "None of the \(count) removed notifications could go back."
        return RuleError(
            .invalidParams,
            "\(what) \(error.reason) They stay restorable within --undo-window: undo again once there is room.",
            at: path,
            limit: error.limit
        )
    }

    /// What `list-removed-notifications` reads, copied under the lock in O(1).
    package var removedNotificationsView: RemovedNotificationsView {
        RemovedNotificationsView(removed: recentlyRemoved, window: configuration.undoWindow)
    }

    /// How many removed notifications wait to be restored or forgotten, every uid's together.
    package var restorableCount: Int { recentlyRemoved.count }
}

/// The removed notifications and the window, for a listing built after the lock.
package struct RemovedNotificationsView: Sendable {
    let removed: RecentlyRemoved
    let window: TimeInterval

    /// `list-removed-notifications`: the caller's (an administrator's: `uid`'s) removed
    /// notifications still restorable at `now`, most recently removed first, at most `limit`
    /// and within `budget`; `more` when some were left out.
    package func listRemovedNotifications(
        _ p: ListRemovedNotificationsParams, caller: Caller, now: Date, budget: PageBudget<RemovedNotification> = .unbounded
    ) throws(RuleError) -> MethodOutcome<ListRemovedNotificationsResult> {
        let uid = try HeraldState.ownerUID(p.uid, caller: caller) ?? caller.uid
        if let app = p.app { try AppName.validate(app) }
        if let limit = p.limit, limit < 0 {
            throw .invalidParams("limit is how many notifications at most, 0 or more; got \(limit).", at: ["limit"])
        }
        let listed = removed.newestFirst(uid: uid, app: p.app).lazy
            .filter { !$0.isExpired(now: now, window: window) }
            .enumerated().map { index, removal in
                (place: index, item: RemovedNotification(
                    notification: removal.notification, removedAt: removal.removedAt, restorableUntil: removal.removedAt + window))
            }
        let page = budget.page(listed, limit: p.limit ?? .max)
        return MethodOutcome(
            result: ListRemovedNotificationsResult(notifications: page.items, more: page.next != nil), audit: AuditRecord(app: p.app))
    }
}

extension HeraldState {
    /// `list-removed-notifications`, on the state itself.
    package func listRemovedNotifications(
        _ p: ListRemovedNotificationsParams, caller: Caller, now: Date, budget: PageBudget<RemovedNotification> = .unbounded
    ) throws(RuleError) -> MethodOutcome<ListRemovedNotificationsResult> {
        try removedNotificationsView.listRemovedNotifications(p, caller: caller, now: now, budget: budget)
    }
}

// MARK: Snapshots

extension HeraldState {
    /// One notification the person removed, as a snapshot keeps it.
    package struct StoredRemoval: Sendable, Hashable {
        package var uid: UInt32
        /// The removal it was part of (one `remove-notifications` call's share a number).
        package var removal: UInt64
        package var removedAt: Date
        package var notification: HeraldNotification

        package init(uid: UInt32, removal: UInt64, removedAt: Date, notification: HeraldNotification) {
            self.uid = uid
            self.removal = removal
            self.removedAt = removedAt
            self.notification = notification
        }
    }

    /// Every uid's removed notifications, by uid, each uid's in the order removed: restored
    /// in this order, they give back the same store. Expired ones still kept (between two
    /// prunes) are written too; the restore forgets them by the clock of the start.
    package var storedRemovedNotifications: [StoredRemoval] {
        recentlyRemoved.sorted.flatMap { uid, removals in
            removals.map { StoredRemoval(uid: uid, removal: $0.number, removedAt: $0.removedAt, notification: $0.notification) }
        }
    }

    /// False when a notification names no app. Whatever their order, each uid's removals
    /// are put together in the order of their removal numbers, and past what a uid keeps the
    /// oldest go: a wall clock stepped back between two removals makes their times run
    /// backwards, and that is no damage (issue 49).
    package mutating func restoreRemovedNotifications(_ stored: [StoredRemoval]) -> Bool {
        var byUID: [UInt32: [RecentlyRemoved.Removal]] = [:]
        for entry in stored {
            guard AppName.isValid(entry.notification.app) else { return false }
            byUID[entry.uid, default: []].append(
                RecentlyRemoved.Removal(
                    number: entry.removal, removedAt: entry.removedAt, notification: entry.notification,
                    bytes: NotificationBytes.of(identifier: entry.notification.identifier, content: entry.notification.content)))
        }
        var restored = RecentlyRemoved()
        for (uid, removals) in byUID {
            guard restored.restore(removals, uid: uid) else { return false }
        }
        recentlyRemoved = restored
        return true
    }
}
