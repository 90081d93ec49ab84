import HeraldCore
import HeraldProtocol

/// The notifications each uid's person removed and can still restore
/// (`restore-notifications`, within `--undo-window`): `{removed: [{notification, removal,
/// removedAt, uid}]}`, each uid's together and in the order removed, each notification a
/// ``NotificationRecord``. A snapshot of an earlier format has none. Read back, each uid's
/// are put in the order of `removal` whatever their `removedAt` (the wall clock may have
/// stepped back between two removals) or their place in the list.
enum RemovedNotificationsSection: JSONSnapshotSection {
    static let name = "removed-notifications"
    static let since: UInt32 = 5

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("removed", state.storedRemovedNotifications) { entry, style in
            var members = RecordMembers(style, capacity: 4)
            members.add("notification", NotificationRecord.json(entry.notification, style))
            members.add("removal", entry.removal)
            members.add("removedAt", entry.removedAt)
            members.add("uid", entry.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let stored = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("removed") { entry throws(RecordDamage) in
                HeraldState.StoredRemoval(
                    uid: try entry.integer("uid"),
                    removal: try entry.integer("removal"),
                    removedAt: try entry.date("removedAt"),
                    notification: try entry.record("notification", NotificationRecord.read)
                )
            }
        }
        guard state.restoreRemovedNotifications(stored) else {
            throw damaged("lists a removed notification of no app.")
        }
    }
}
