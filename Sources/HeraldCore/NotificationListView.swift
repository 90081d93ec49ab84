import FoundationEssentials
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

    /// `uid`'s list and the categories as they are now, for a listing or a search built
    /// after the lock: the view holds no other uid's list, so no other uid's change copies
    /// a list because of it (issue 49, finding 4).
    package func notificationListView(of uid: UInt32) -> NotificationListView {
        NotificationListView(notifications: notifications.only(uid), categories: categories)
    }

    /// Changes that copied a notification list under the lock because a reader held it.
    package var notificationListCopiesWhileRead: Int { notifications.copiesWhileRead }

    /// `uid`'s list when a reader holds it (a value to make ``NotificationList/UIDList/unshared()``
    /// from after the lock); nil when no reader does.
    package mutating func heldNotificationList(of uid: UInt32) -> HeldNotificationList? {
        notifications.heldList(uid).map { HeldNotificationList(uid: uid, list: $0) }
    }

    /// The lists readers hold: `uid`'s, or every uid's when nil (the summaries and snoozes
    /// due, which change any uid's list). A look at each uid, without its entries.
    package mutating func heldNotificationLists(of uid: UInt32?) -> [HeldNotificationList] {
        if let uid { return heldNotificationList(of: uid).map { [$0] } ?? [] }
        return notifications.uids.compactMap { heldNotificationList(of: $0) }
    }

    /// Puts the copy of a held list in its place, unless the list changed meanwhile.
    package mutating func replaceNotificationList(_ held: HeldNotificationList, with copy: UnsharedNotificationList) {
        notifications.replaceList(held.uid, held: held.list, with: copy.list)
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

/// A uid's notification list that a reader held when a change came for it: copied after
/// the state's lock (``unshared()``) and put in its place, so that the change copies
/// nothing under the lock.
package struct HeldNotificationList: Sendable {
    let uid: UInt32
    let list: NotificationList.UIDList

    /// The list with storage of its own; linear in the list and its index.
    package func unshared() -> UnsharedNotificationList {
        UnsharedNotificationList(list: list.unshared())
    }
}

/// A held list's copy, which shares nothing with any reader.
package struct UnsharedNotificationList: Sendable {
    let list: NotificationList.UIDList
}
