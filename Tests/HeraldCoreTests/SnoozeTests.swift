import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31: the person snoozes a delivered notification; it comes back at its time.
@Suite struct SnoozeTests {
    typealias F = Fixtures

    private func delivered(_ identifier: String = "n1", at seconds: Double = 0, state: inout HeraldState) throws {
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: identifier, content: F.content()), caller: F.user, now: F.now + seconds)
    }

    private func listed(_ state: HeraldState) throws -> [HeraldNotification] {
        try state.listNotifications(ListNotificationsParams(app: F.app), caller: F.user).result.notifications
    }

    @Test func aSnoozedNotificationLeavesTheDeliveredAndComesBackAtItsTime() throws {
        var state = F.state()
        try delivered(state: &state)
        let (outcome, removed) = try state.snoozeNotification(
            SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 3600), caller: F.user, now: F.now + 10)
        #expect(outcome.result.snoozedUntil == F.now + 3610)
        #expect(removed == NotificationsRemoved(uid: 1000, app: F.app, identifiers: ["n1"]), "presenters take it down")
        let snoozed = try #require(try listed(state).first)
        #expect(snoozed.state == .snoozed && snoozed.snoozedUntil == F.now + 3610)
        #expect(try state.listNotifications(ListNotificationsParams(app: F.app, state: .delivered), caller: F.user).result.notifications.isEmpty)

        #expect(state.returnDueSnoozed(now: F.now + 3609).isEmpty, "not before its time")
        let back = state.returnDueSnoozed(now: F.now + 3611)
        #expect(back.count == 1 && back.first?.uid == 1000)
        let notification = try #require(back.first?.notification)
        #expect(notification.state == .delivered && notification.deliveredAt == F.now + 3611 && notification.snoozedUntil == nil)
        #expect(notification.delivery.reasons.first?.code == .snoozeEnded)
        #expect(notification.delivery.presentation == .alert)
        #expect(try listed(state).first?.state == .delivered)
        #expect(state.returnDueSnoozed(now: F.now + 7200).isEmpty, "once")
    }

    @Test func snoozedNotificationsComeBackWithoutCopyingTheList() throws {
        var state = F.state()
        for index in 0..<20 { try delivered("n\(index)", at: Double(index), state: &state) }
        for index in stride(from: 0, to: 20, by: 2) {
            _ = try state.snoozeNotification(
                SnoozeNotificationParams(app: F.app, identifier: "n\(index)", seconds: 60), caller: F.user, now: F.now + 30)
        }
        let table = try storageIdentity(of: state.notifications.lists[F.user.uid]!.entries)
        #expect(state.returnDueSnoozed(now: F.now + 91).count == 10)
        // Changing the entries while a loop over them held the table copied all of it.
        #expect(try storageIdentity(of: state.notifications.lists[F.user.uid]!.entries) == table)
        #expect(try listed(state).allSatisfy { $0.state == .delivered })
    }

    @Test func itComesBackQuietWhenAFocusIsOnThatDidNotAllowIt() throws {
        var state = F.state()
        try delivered(state: &state)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 60), caller: F.user, now: F.now)
        _ = try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: "Sleep")), caller: F.user, now: F.now + 30)
        let back = try #require(state.returnDueSnoozed(now: F.now + 61).first?.notification)
        #expect(back.delivery.presentation == .quiet && !back.delivery.sound)
        #expect(back.delivery.reasons.map(\.code).prefix(2) == [.snoozeEnded, .silencedByFocus])
        let listed = try #require(try listed(state).first)
        #expect(listed.delivery.presentation == .quiet, "the list says how it came back")
        #expect(listed.delivery.reasons.map(\.code).prefix(2) == [.snoozeEnded, .silencedByFocus])
    }

    @Test func snoozingTwiceMovesItsTimeAndASnapshotKeepsIt() throws {
        var state = F.state()
        try delivered(state: &state)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 60), caller: F.user, now: F.now)
        _ = try state.snoozeNotification(
            SnoozeNotificationParams(app: F.app, identifier: "n1", until: F.now + 600), caller: F.user, now: F.now + 1)
        var restored = F.state()
        let restoredAll = restored.restoreNotifications(state.storedNotifications)
        #expect(restoredAll)
        #expect(try listed(restored).first?.snoozedUntil == F.now + 600)
        #expect(restored.returnDueSnoozed(now: F.now + 120).isEmpty, "the later time holds")
        #expect(restored.returnDueSnoozed(now: F.now + 600).map(\.notification.identifier) == ["n1"], "and after a restart")
    }

    @Test func evictionAndTheSummaryPassASnoozedNotificationBy() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = 2
        var state = F.state(configuration)
        try delivered("old", at: 0, state: &state)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "old", seconds: 60), caller: F.user, now: F.now)
        try delivered("a", at: 1, state: &state)
        try delivered("b", at: 2, state: &state)
        #expect(try listed(state).map(\.identifier) == ["b", "old"], "the oldest delivered went, not the snoozed one")
        #expect(state.deliverDueSummaries(now: F.now + 30).isEmpty)
        _ = try state.deliverSummary(DeliverSummaryParams(), caller: F.user, now: F.now + 30)
        #expect(try listed(state).first { $0.identifier == "old" }?.state == .snoozed, "deliver-summary leaves it snoozed")
    }

    @Test func wrongRequestsAreRefusedWithTheMemberAtFault() throws {
        var state = F.state()
        try delivered(state: &state)
        let cases: [(SnoozeNotificationParams, RuleError.Code, MemberPath)] = [
            (SnoozeNotificationParams(app: F.app, identifier: "n1"), .invalidParams, ["seconds"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 0), .invalidParams, ["seconds"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: .infinity), .invalidParams, ["seconds"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 31 * 86400), .invalidParams, ["seconds"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", until: F.now - 1), .invalidParams, ["until"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 5, until: F.now + 5), .invalidParams, ["until"]),
            (SnoozeNotificationParams(app: F.app, identifier: "none", seconds: 5), .notificationNotFound, ["identifier"]),
            (SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 5, uid: 1001), .permissionDenied, ["uid"]),
        ]
        for (params, code, path) in cases {
            let error = ruleError { try state.snoozeNotification(params, caller: F.user, now: F.now) }
            #expect(error?.code == code && error?.path == path, "\(params): \(String(describing: error))")
        }
        let other = ruleError {
            try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 5), caller: F.otherUser, now: F.now)
        }
        #expect(other?.code == .notificationNotFound, "another uid's notification is not in theirs")
        let zero = ruleError { try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 0), caller: F.user, now: F.now) }
        #expect(zero?.reason.hasSuffix("; got 0.") == true, "\(String(describing: zero))")
    }

    @Test func aScheduledNotificationCannotBeSnoozed() throws {
        var state = F.state()
        _ = try state.setSummary(SetSummaryParams(apps: [F.app], times: ["08:00"]), caller: F.user, now: F.now)
        try delivered(state: &state)
        #expect(try listed(state).first?.state == .scheduled)
        let error = ruleError {
            try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 5), caller: F.user, now: F.now)
        }
        #expect(error?.code == .invalidParams && error?.path == ["identifier"])
    }
}
