import Foundation
import HeraldProtocol

/// What `list-notifications` reads: the notification lists and the categories, copied
/// from the state under its lock in O(1) (both are copy-on-write values), so that the
/// listing — milliseconds for a full list of 10,000 — is built after the lock and holds
/// up no other request. A request that changes the lists meanwhile copies the one list it
/// changes; a copy of the whole state would make it copy the interactions too.
package struct NotificationListView: Sendable {
    let notifications: NotificationList
    let categories: NotificationCategories

    /// `list-notifications`: the caller's list (an administrator's: `uid`'s), newest first,
    /// one page: after `cursor`, at most `limit`, within `budget`; `nextCursor` when more
    /// are left. Without `app`, every app's: the person's own view of their notifications
    /// (apps run as the person's uid, so this shows an app nothing it could not ask for).
    
    package func listNotifications(
        _ p: ListNotificationsParams, caller: Caller, budget: PageBudget<HeraldNotification> = .unbounded
    ) throws(RuleError)
        -> MethodOutcome<ListNotificationsResult>
    {
        let uid = try HeraldState.ownerUID(p.uid, caller: caller) ?? caller.uid
        if let app = p.app { try AppName.validate(app) }
        if let limit = p.limit, limit < 0 {
            throw .invalidParams("limit is how many notifications at most, 0 or more; got \(limit).", at: ["limit"])
        }
        let after = try p.cursor.map { text throws(RuleError) in try NotificationCursor.read(text, answeredBy: "list-notifications") }
        let listed = notifications.newestFirst(uid: uid, app: p.app, state: p.state, after: after).lazy.map {
            (place: $0.place, item: categories.presented($0.notification, uid: uid))
        }
        let page = budget.page(listed, limit: p.limit ?? .max)
        return MethodOutcome(
            result: ListNotificationsResult(notifications: page.items, nextCursor: page.next?.text), audit: AuditRecord(app: p.app))
    }
}

extension HeraldState {
    /// The lists and categories as they are now, for a listing built after the lock.
    package var notificationListView: NotificationListView {
        NotificationListView(notifications: notifications, categories: categories)
    }

    /// `list-notifications`, on the state itself.
    package func listNotifications(
        _ p: ListNotificationsParams, caller: Caller, budget: PageBudget<HeraldNotification> = .unbounded
    ) throws(RuleError)
        -> MethodOutcome<ListNotificationsResult>
    {
        try notificationListView.listNotifications(p, caller: caller, budget: budget)
    }
}
