import FoundationEssentials
import HeraldProtocol

/// What `update-content` did to the caller's notification list, handed to the server so
/// that the rest happens after the state's lock: the presenters' copy of the notification,
/// and freeing the one taken out of the list.
package struct NotificationListing: Sendable {
    /// When the list received the notification: the call's time, or the earlier one's for
    /// a delivered notification replaced in place.
    package let receivedAt: Date
    /// When it was delivered; nil while it is scheduled for the summary.
    package let deliveredAt: Date?
    /// The notification replaced, and the oldest delivered evicted to make room: freed
    /// when this value is dropped.
    let removed: [NotificationList.Removed]

    /// The notification as the list now keeps it (what `notification(uid:app:identifier:)`
    /// returns), made from `update-content`'s result.
    package func notification(_ result: UpdateContentResult, app: String) -> HeraldNotification {
        HeraldNotification(
            identifier: result.identifier, app: app, content: result.content, delivery: result.delivery,
            state: deliveredAt == nil ? .scheduled : .delivered, receivedAt: receivedAt, deliveredAt: deliveredAt
        )
    }
}
