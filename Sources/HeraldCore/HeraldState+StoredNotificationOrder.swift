import FoundationEssentials
import HeraldProtocol

/// The notification list read where it is, for a snapshot's records: the entries in the
/// order of ``HeraldState/storedNotifications``, without an array of them or a
/// `HeraldNotification` built for each.
extension HeraldState {
    /// The order that restores the list, found at once (sorting a stamp for each entry), to
    /// visit range by range, on several threads at once, with
    /// ``forEachStoredNotification(in:at:_:)``. Good only for the state that made it,
    /// unchanged: a snapshot's copy.
    package struct StoredNotificationOrder: Sendable {
        fileprivate let order: NotificationList.StoredOrder

        /// How many notifications the list holds.
        package var count: Int { order.count }
    }

    package var storedNotificationOrder: StoredNotificationOrder {
        StoredNotificationOrder(order: notifications.storedOrder())
    }

    /// One notification of a uid's list as the list keeps it: what its record is written
    /// from. Its actions and category options are never kept (they are filled in as it is
    /// presented), so it has none.
    package struct StoredNotificationEntry {
        package let uid: UInt32
        /// Its app's number in its uid's own table of apps: the same number is the same app
        /// within one uid, and says nothing across uids.
        package let appNumber: UInt32
        package let app: String
        fileprivate let entry: NotificationList.Entry

        package var identifier: String { entry.identifier }
        package var content: NotificationContent { entry.content }
        package var delivery: Delivery { entry.delivery }
        package var state: NotificationState { entry.state }
        package var receivedAt: Date { entry.receivedAt }
        package var deliveredAt: Date? { entry.deliveredAt }
        package var snoozedUntil: Date? { entry.snoozedUntil }
        package var actions: [NotificationAction]? { nil }
        package var categoryOptions: [NotificationCategoryOption]? { nil }
    }

    /// The notifications at `positions` of `order` (made from this state), in order.
    package func forEachStoredNotification(
        in order: StoredNotificationOrder, at positions: Range<Int>, _ body: (StoredNotificationEntry) throws -> Void
    ) rethrows {
        try notifications.forEach(in: order.order, at: positions) { uid, app, entry in
            try body(StoredNotificationEntry(uid: uid, appNumber: entry.app, app: app, entry: entry))
        }
    }
}
