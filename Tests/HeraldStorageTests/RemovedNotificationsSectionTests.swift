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

    @Test("Removals survive a restart in their order, and removals out of order are damage")
    func roundTrip() throws {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: TimeZone(identifier: "UTC")!))
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

        // The same removals out of order: damage, named as such.
        let sections = try F.sections(of: bytes).map { section -> (name: String, bytes: [UInt8]) in
            guard section.name == RemovedNotificationsSection.name else { return section }
            var object = try #require(try JSONSerialization.jsonObject(with: Data(section.bytes)) as? [String: Any])
            object["removed"] = Array(((object["removed"] as? [Any]) ?? []).reversed())
            return (section.name, Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }
        let error = #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(F.sealed(F.payload(sections), interactions: 0)) }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("out of order"), "\(String(describing: error))")
    }
}
