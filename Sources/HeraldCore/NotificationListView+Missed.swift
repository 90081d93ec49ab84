import FoundationEssentials
import HeraldProtocol

extension NotificationListView {
    /// How many of a uid's newest delivered notifications a presenter's `since` looks at:
    /// the scan is bounded by this, never by the list (issue 49, finding 5).
    package static let missedScanLimit = 1_000

    /// What a presenter of `uid` missed (`subscribe-notifications`' `since`): the alert and
    /// quiet notifications of every app of `uid` delivered after `since`, the newest `limit`
    /// of them, oldest first, as presenters are told them. A summary is not among them: it
    /// was delivered as a whole, and its notifications stay in the list.
    ///
    /// Read from the newest delivered back, at most ``missedScanLimit`` of them: linear in
    /// what it looks at, with no sort of the list.
    ///
    /// Times compare in whole milliseconds, as the wire writes them: a presenter's `since` is
    /// the `deliveredAt` it was told, so the notification it names is not sent again.
    package func missed(uid: UInt32, since: Date, limit: Int) -> [HeraldNotification] {
        let after = RFC3339.milliseconds(since)
        let found = notifications.newestDelivered(uid: uid, lookingAtMost: Self.missedScanLimit) { entry in
            entry.delivery.presentation != .summary && RFC3339.milliseconds(entry.deliveredAt ?? entry.receivedAt) > after
        }
        return found.prefix(limit).reversed().map { categories.presented($0, uid: uid) }
    }
}

extension HeraldState {
    /// The uid whose missed notifications `p.since` asks for: the one presented; nil
    /// without `since`. A presenter of every uid has no one desktop's "since", so it is
    /// -32602 at `/since`.
    package static func missedUID(_ p: SubscribeNotificationsParams, presenting uid: UInt32?) throws(RuleError) -> UInt32? {
        guard p.since != nil else { return nil }
        guard let uid else {
            throw .invalidParams(
                "since is for a presenter of one uid (a person's desktop); name the uid, or leave since out.", at: ["since"])
        }
        return uid
    }
}
