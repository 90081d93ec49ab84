import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// Issue 31: what snoozing and silence lists add to the state survives a snapshot.
@Suite("Snoozed notifications and silence lists in a snapshot")
struct SnoozeAndSilenceSectionTests {
    typealias F = SnapshotFixtures

    private static func restored(_ state: HeraldState) throws -> HeraldState {
        var state = try SnapshotFile.decode(try F.file(state)).state
        state.configuration = CoreConfiguration(timeZone: .utc)
        return state
    }

    @Test("A snoozed notification comes back after a restart at its time, and a Focus keeps what it silences")
    func roundTrip() throws {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "n1", content: NotificationContent(title: "Ann", body: "Lunch?")),
            caller: F.user, now: F.now)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 600), caller: F.user, now: F.now)
        let sleep = FocusConfiguration(
            name: "Sleep", silencedPeople: [Person(handle: PersonHandle(value: "bo@example.org", type: .emailAddress))],
            silencedApps: ["org.example.news"])
        _ = try state.defineFocus(DefineFocusParams(focus: sleep), caller: F.user, now: F.now)

        var back = try Self.restored(state)
        let listed = try back.listNotifications(ListNotificationsParams(app: F.app), caller: F.user).result.notifications
        #expect(listed.first?.state == .snoozed && listed.first?.snoozedUntil == F.now + 600)
        #expect(back.returnDueSnoozed(now: F.now + 599).isEmpty)
        #expect(back.returnDueSnoozed(now: F.now + 600).map(\.notification.identifier) == ["n1"])
        let focuses = try back.getFocus(GetFocusParams(), caller: F.user, now: F.now).result.focuses
        #expect(focuses.first { $0.name == "Sleep" }?.silencedApps == ["org.example.news"])
        #expect(focuses.first { $0.name == "Sleep" }?.silencedPeople?.first?.handle?.value == "bo@example.org")
    }
}
