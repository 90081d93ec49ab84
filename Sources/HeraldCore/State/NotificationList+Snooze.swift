import FoundationEssentials
import HeraldProtocol

extension NotificationList {
    /// Puts `uid`'s delivered (or already snoozed) notification off until `until`: it
    /// leaves the delivered ones — eviction, retention and presenters pass it by — and
    /// ``returnDueSnoozed(now:)`` delivers it again then. Returns it as it is now.
    mutating func snooze(uid: UInt32, app: String, identifier: String, until: Date) throws(RuleError) -> HeraldNotification {
        guard let list = lists[uid], let key = list.key(app: app, identifier: identifier), let entry = list.entries[key] else {
            throw RuleError(
                .notificationNotFound, "No notification \(identifier) of \(app) is in your list; list-notifications shows what is.",
                at: ["identifier"])
        }
        guard entry.state != .scheduled else {
            throw .invalidParams(
                "Notification \(identifier) waits for the summary and has not been delivered; only a delivered one can be snoozed.",
                at: ["identifier"])
        }
        earliestSnoozeEnd = min(earliestSnoozeEnd ?? until, until)
        return withList(uid) { list in
            var entry = list.entries[key]!
            if entry.deliveredStamp != nil {
                entry.deliveredStamp = nil  // its element of deliveredOrder is stale from now on
                list.deliveredCount -= 1
                list.deliveredBytes -= entry.bytes
            }
            entry.snoozedUntil = until
            list.entries[key] = entry
            list.compactIfWasteful()
            return entry.notification(app: app)
        }
    }

    /// The uids holding a snoozed notification whose time has come by `now`.
    func uidsWithSnoozes(dueBy now: Date) -> [UInt32] {
        guard let earliest = earliestSnoozeEnd, earliest <= now else { return [] }
        return lists.compactMap { uid, list in
            list.entries.values.contains { $0.snoozedUntil.map { $0 <= now } ?? false } ? uid : nil
        }
    }

    /// Delivers again every snoozed notification whose time has come by `now`, `reason`
    /// given first among its delivery reasons and its delivery then changed by `adjust`
    /// (a Focus on now quiets it: true when it did); returns them by uid, oldest snooze end
    /// first, each with what `adjust` said.
    mutating func returnDueSnoozed(
        now: Date, reason: DeliveryReason, adjust: (UInt32, inout Delivery) -> Bool
    ) -> [(uid: UInt32, notification: HeraldNotification, adjusted: Bool)] {
        guard let earliest = earliestSnoozeEnd, earliest <= now else { return [] }
        var returned: [(uid: UInt32, until: Date, notification: HeraldNotification, adjusted: Bool)] = []
        var nextEarliest: Date?
        var stamp = nextStamp
        defer { nextStamp = stamp }
        for uid in lists.keys.sorted() {
            withList(uid) { list in
                // The keys first, then the changes: a change made while the loop holds the
                // table would copy all of it.
                var ended: [(key: Key, until: Date)] = []
                for (key, entry) in list.entries {
                    guard let until = entry.snoozedUntil else { continue }
                    guard until <= now else {
                        nextEarliest = min(nextEarliest ?? until, until)
                        continue
                    }
                    ended.append((key, until))
                }
                for (key, until) in ended {
                    var back = list.entries[key]!
                    back.snoozedUntil = nil
                    back.deliveredAt = now
                    back.delivery.reasons = [reason] + back.delivery.reasons.filter { $0.code != .snoozeEnded }
                    let adjusted = adjust(uid, &back.delivery)
                    stamp += 1
                    back.deliveredStamp = stamp
                    list.deliveredOrder.append((stamp, key))
                    list.deliveredCount += 1
                    list.deliveredBytes += back.bytes
                    list.entries[key] = back
                    returned.append((uid, until, back.notification(app: list.apps.name(of: back.app)), adjusted))
                }
            }
        }
        earliestSnoozeEnd = nextEarliest
        return returned.sorted { ($0.until, $0.uid) < ($1.until, $1.uid) }.map { ($0.uid, $0.notification, $0.adjusted) }
    }
}
