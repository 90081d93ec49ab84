import FoundationEssentials
import HeraldProtocol

/// One person's own figures, what `stats` answers a caller who is not an administrator:
/// their interactions, notifications, responses waiting and the Focus on — never another
/// uid's, nor the daemon's counters that would tell of other people.
package struct PersonFigures: Sendable, Hashable {
    package var uid: UInt32
    package var interactions: Int
    /// The apps the person's interactions are of.
    package var apps: Int
    /// Kept, delivered and scheduled (snoozed included).
    package var notifications: Int
    package var deliveredNotifications: Int
    package var pendingResponses: Int
    package var focus: ActiveFocus?
}

extension HeraldState {
    /// `uid`'s own figures at `now`; reads, never changes.
    package func personFigures(uid: UInt32, now: Date) -> PersonFigures {
        let notifications = notifications.counts(of: uid)
        return PersonFigures(
            uid: uid,
            interactions: interactions.count(of: uid),
            apps: interactions.appCount(of: uid),
            notifications: notifications.all,
            deliveredNotifications: notifications.delivered,
            pendingResponses: pendingResponses.count(of: uid),
            focus: activeFocus(uid: uid, now: now).active
        )
    }
}
