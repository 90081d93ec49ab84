import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// Issue 31, item 7: what the person removed can still be restored after a restart, within
/// the window.
@Suite("Removed notifications in a snapshot")
struct RemovedNotificationsSectionTests {
    typealias F = SnapshotFixtures

    @Test("Removals survive a restart in their order, and removals listed out of order are put back in it")
    func roundTrip() throws {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        for identifier in ["n1", "n2"] {
            _ = try state.updateContent(
                UpdateContentParams(app: F.app, identifier: identifier, content: NotificationContent(title: "Ann", body: "Lunch?")),
                caller: F.user, now: F.now)
        }
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n1"]), caller: F.user, now: F.now + 5)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n2"]), caller: F.user, now: F.now + 6)
        let bytes = try F.file(state)
        #expect(try F.sections(of: bytes).map(\.name).contains(RemovedNotificationsSection.name))

        var back = try SnapshotFile.decode(bytes).state
        #expect(back.storedRemovedNotifications == state.storedRemovedNotifications)
        let listed = try back.listRemovedNotifications(ListRemovedNotificationsParams(), caller: F.user, now: F.now + 10).result
        #expect(listed.notifications.map(\.notification.identifier) == ["n2", "n1"])
        #expect(listed.notifications.first?.notification.content.body == "Lunch?")
        let (outcome, delivered) = try back.restoreNotifications(RestoreNotificationsParams(), caller: F.user, now: F.now + 10)
        #expect(outcome.result.restored == 1 && delivered.map(\.notification.identifier) == ["n2"], "the last removal")

        // The same removals listed backwards (issue 49): repaired, not refused.
        let sections = try F.sections(of: bytes).map { section -> (name: String, bytes: [UInt8]) in
            guard section.name == RemovedNotificationsSection.name else { return section }
            var object = try #require(try JSONSerialization.jsonObject(with: Data(section.bytes)) as? [String: Any])
            object["removed"] = Array(((object["removed"] as? [Any]) ?? []).reversed())
            return (section.name, Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }
        let repaired = try SnapshotFile.decode(F.sealed(F.payload(sections), interactions: 0)).state
        #expect(repaired.storedRemovedNotifications == state.storedRemovedNotifications)
    }

    /// Issue 49, finding 3: two removals with the wall clock stepped back between them made
    /// the next start refuse the snapshot ("out of order"), and `--discard-damaged-state`
    /// then dropped every uid's state.
    @Test("A clock stepped back between two removals: the snapshot loads, the removals intact")
    func clockSteppedBack() throws {
        let clock = ManualClock(F.now)
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        for identifier in ["n1", "n2"] {
            _ = try state.updateContent(
                UpdateContentParams(app: F.app, identifier: identifier, content: NotificationContent(title: "Ann", body: "Lunch?")),
                caller: F.user, now: clock.now())
        }
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "other", content: NotificationContent(body: "Bo's")), caller: F.otherUser, now: clock.now())
        clock.advance(by: 60)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n1"]), caller: F.user, now: clock.now())
        clock.advance(by: -2)  // NTP, or a person setting the time
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n2"]), caller: F.user, now: clock.now())

        let back = try SnapshotFile.decode(try F.file(state)).state
        #expect(back.storedRemovedNotifications == state.storedRemovedNotifications, "the removals intact")
        #expect(back.storedRemovedNotifications.map(\.removedAt) == [F.now + 60, F.now + 58])
        #expect(back.storedNotifications == state.storedNotifications, "and the rest of the state: another uid's list")
        var restarted = back
        let listed = try restarted.listRemovedNotifications(ListRemovedNotificationsParams(), caller: F.user, now: clock.now()).result
        #expect(listed.notifications.map(\.notification.identifier) == ["n2", "n1"], "most recently removed first")
        let (outcome, delivered) = try restarted.restoreNotifications(RestoreNotificationsParams(), caller: F.user, now: clock.now())
        #expect(outcome.result.restored == 1 && delivered.map(\.notification.identifier) == ["n2"], "the last removal, by order")
    }
}
