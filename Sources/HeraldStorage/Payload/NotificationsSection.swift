import HeraldCore
import HeraldProtocol

/// Each uid's notification list: one entry per notification, each uid's delivered ones in
/// the order they were delivered, then its scheduled ones, so the list restored is the
/// list written. A snapshot of an earlier format has no lists, and restores them empty.
enum NotificationsSection: JSONSnapshotSection {
    static let name = "notifications"
    static let since: UInt32 = 3

    struct Form: Codable {
        struct Entry: Codable {
            var uid: UInt32
            var notification: HeraldNotification
        }

        var notifications: [Entry]
    }

    static func form(of state: HeraldState) -> Form {
        Form(notifications: state.storedNotifications.map { Form.Entry(uid: $0.uid, notification: $0.notification) })
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        let stored = form.notifications.map { HeraldState.StoredNotification(uid: $0.uid, notification: $0.notification) }
        guard state.restoreNotifications(stored) else {
            throw damaged("lists a notification twice.")
        }
    }
}
