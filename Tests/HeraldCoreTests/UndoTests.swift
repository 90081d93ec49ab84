import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31, item 7: what the person removed comes back within `--undo-window`, with its
/// actions still answering the app.
@Suite struct UndoTests {
    typealias F = Fixtures

    static let like = NotificationAction(identifier: "like", title: "Like")
    static let chatApp = Caller(uid: 1000, gid: 1000, pid: 12, isAdministrator: false, app: AppIdentity(id: F.app, source: .flatpak))

    private func post(_ identifier: String, at seconds: Double = 0, category: String? = "message", state: inout HeraldState) throws {
        var content = F.content()
        content.categoryIdentifier = category
        _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: identifier, content: content), caller: F.user, now: F.now + seconds)
    }

    private func remove(_ identifiers: [String], at seconds: Double, caller: Caller = F.user, state: inout HeraldState) throws {
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: identifiers), caller: caller, now: F.now + seconds)
    }

    private func restore(_ p: RestoreNotificationsParams = RestoreNotificationsParams(), at seconds: Double, caller: Caller = F.user, state: inout HeraldState)
        throws -> (restored: Int, delivered: [NotificationDelivered])
    {
        let (outcome, delivered) = try state.restoreNotifications(p, caller: caller, now: F.now + seconds)
        return (outcome.result.restored, delivered)
    }

    private func listed(_ state: HeraldState, caller: Caller = F.user) throws -> [HeraldNotification] {
        try state.listNotifications(ListNotificationsParams(app: F.app), caller: caller).result.notifications
    }

    private func removed(_ state: HeraldState, at seconds: Double, caller: Caller = F.user) throws -> [RemovedNotification] {
        try state.listRemovedNotifications(ListRemovedNotificationsParams(), caller: caller, now: F.now + seconds).result.notifications
    }

    private func withCategory() throws -> HeraldState {
        var state = F.state()
        _ = try state.setNotificationCategories(
            SetNotificationCategoriesParams(app: F.app, categories: [NotificationCategory(identifier: "message", actions: [Self.like])]), caller: F.user)
        return state
    }

    @Test func aRemovedNotificationComesBackInItsPlaceWithItsActionsAndAnswersTheApp() throws {
        var state = try withCategory()
        try post("n1", at: 0, state: &state)
        try post("n2", at: 10, state: &state)
        let before = try listed(state)
        try remove(["n1"], at: 60, state: &state)
        #expect(try listed(state).map(\.identifier) == ["n2"])
        let restorable = try removed(state, at: 61)
        #expect(restorable.map(\.notification.identifier) == ["n1"])
        #expect(restorable.first?.removedAt == F.now + 60 && restorable.first?.restorableUntil == F.now + 660)

        let (count, delivered) = try restore(RestoreNotificationsParams(app: F.app, identifiers: ["n1"]), at: 120, state: &state)
        #expect(count == 1)
        let shown = try #require(delivered.first)
        #expect(shown.uid == 1000 && shown.notification.identifier == "n1")
        #expect(shown.notification.actions?.map(\.identifier) == ["like"], "presenters draw its actions again")
        #expect(shown.notification.delivery.reasons.first?.code == .restored && !shown.notification.delivery.sound)
        let after = try listed(state)
        #expect(after.map(\.identifier) == before.map(\.identifier), "back in its place")
        #expect(after.last?.receivedAt == before.last?.receivedAt && after.last?.deliveredAt == before.last?.deliveredAt)
        #expect(after.last?.state == .delivered)
        #expect(try removed(state, at: 121).isEmpty, "restored once")

        let answered = try state.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: "n1", actionIdentifier: "like", userText: nil, uid: nil), caller: F.user, now: F.now + 130
        ) { _, _ in false }
        #expect(answered.response.actionIdentifier == "like" && answered.response.identifier == "n1")
        let (_, pending) = try state.subscribeResponses(SubscribeResponsesParams(app: F.app), caller: Self.chatApp)
        #expect(pending.map(\.identifier) == ["n1"], "the response reaches the app")
    }

    /// Issue 49, finding 6: a call's identifiers are bounded by what a uid keeps removed,
    /// and looked up in one pass whatever their number.
    @Test func aRestoreNamesAtMostFiveHundredIdentifiersInOnePass() throws {
        var state = F.state()
        for index in 0..<3 { try post("n\(index)", state: &state) }
        try remove(["n0", "n1", "n2"], at: 1, state: &state)
        let many = (0..<501).map { "x-\($0)" }
        #expect {
            try restore(RestoreNotificationsParams(app: F.app, identifiers: many), at: 2, state: &state)
        } throws: { error in
            let rule = error as? RuleError
            return rule?.code == .invalidParams && rule?.path == ["identifiers"] && rule?.limit == 500
        }
        #expect(try removed(state, at: 2).count == 3, "a refused call takes nothing")
        // Asked out of their removal's order, with names never removed and one twice.
        let asked = ["n2", "x-1", "n0", "n2"] + (0..<496).map { "y-\($0)" }
        let (count, delivered) = try restore(RestoreNotificationsParams(app: F.app, identifiers: asked), at: 3, state: &state)
        #expect(count == 2)
        #expect(delivered.map(\.notification.identifier) == ["n2", "n0"], "in the order asked")
        #expect(try removed(state, at: 3).map(\.notification.identifier) == ["n1"])
    }

    @Test func pastTheWindowItIsGoneForGoodAndFreed() throws {
        var state = F.state()
        try post("n1", state: &state)
        try remove(["n1"], at: 0, state: &state)
        #expect(state.restorableCount == 1)
        #expect(try removed(state, at: 599).count == 1)
        #expect(try removed(state, at: 600).isEmpty, "expired ones are not listed")
        #expect(try restore(at: 600, state: &state).restored == 0)
        #expect(state.restorableCount == 0, "and freed")
        #expect(try listed(state).isEmpty)

        try post("n2", state: &state)
        try remove(["n2"], at: 10, state: &state)
        state.pruneExpired(now: F.now + 700)
        #expect(state.restorableCount == 0, "the periodic prune frees them too")
    }

    @Test func undoRestoresTheLastRemovalWhole() throws {
        var state = F.state()
        for (index, identifier) in ["a", "b", "c"].enumerated() { try post(identifier, at: Double(index), state: &state) }
        try remove(["a"], at: 10, state: &state)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, all: true), caller: F.user, now: F.now + 20)
        #expect(try listed(state).isEmpty)
        let last = try restore(at: 30, state: &state)
        #expect(last.restored == 2 && Set(last.delivered.map(\.notification.identifier)) == ["b", "c"])
        #expect(try listed(state).map(\.identifier) == ["c", "b"])
        #expect(try restore(at: 31, state: &state).restored == 1, "then the one before")
        #expect(try listed(state).map(\.identifier) == ["c", "b", "a"])
        #expect(try restore(at: 32, state: &state).restored == 0, "nothing left")
    }

    /// Issue 45, item 4: `heraldctl notifications remove --all` as the person.
    @Test func thePersonRemovesEveryAppsAtOnceAndUndoBringsThemAllBack() throws {
        var state = F.state()
        try post("a", state: &state)
        _ = try state.updateContent(UpdateContentParams(app: F.otherApp, identifier: "b", content: F.content()), caller: F.user, now: F.now + 1)
        _ = try state.updateContent(UpdateContentParams(app: F.otherApp, identifier: "c", content: F.content()), caller: F.otherUser, now: F.now + 2)
        let (outcome, events) = try state.removeNotifications(RemoveNotificationsParams(app: nil, all: true), caller: F.user, now: F.now + 10)
        #expect(outcome.result.removed == 2 && Set(events.map(\.app)) == [F.app, F.otherApp])
        #expect(try state.listNotifications(.init(app: nil), caller: F.user).result.notifications.isEmpty)
        #expect(try state.listNotifications(.init(app: nil), caller: F.otherUser).result.notifications.map(\.identifier) == ["c"], "another uid's stay")
        let undone = try restore(at: 20, state: &state)
        #expect(undone.restored == 2 && Set(undone.delivered.map(\.notification.identifier)) == ["a", "b"])
        // Identifiers still need their app.
        let unnamed = ruleError { try state.removeNotifications(RemoveNotificationsParams(app: nil, identifiers: ["a"]), caller: F.user, now: F.now + 30) }
        #expect(unnamed?.path == ["app"])
    }

    @Test func anAppWithdrawingItsOwnIsNotUndoableNorIsOneTheAppPostedAgain() throws {
        var state = F.state()
        try post("n1", state: &state)
        try remove(["n1"], at: 1, caller: Self.chatApp, state: &state)
        #expect(try removed(state, at: 2).isEmpty)

        try post("n2", state: &state)
        try remove(["n2"], at: 3, state: &state)
        try post("n2", at: 4, category: nil, state: &state)
        #expect(try restore(at: 5, state: &state).restored == 0, "the app's newer notification stands")
        #expect(try listed(state).first?.receivedAt == F.now + 4)
    }

    @Test func eachUIDRestoresOnlyItsOwn() throws {
        var state = F.state()
        try post("n1", state: &state)
        try remove(["n1"], at: 1, state: &state)
        #expect(try removed(state, at: 2, caller: F.otherUser).isEmpty)
        #expect(try restore(at: 2, caller: F.otherUser, state: &state).restored == 0)
        #expect(ruleError { try restore(RestoreNotificationsParams(uid: 1000), at: 2, caller: F.otherUser, state: &state) }?.code == .permissionDenied)
        #expect(try restore(RestoreNotificationsParams(uid: 1000), at: 2, caller: F.admin, state: &state).restored == 1, "an administrator may, for the uid")
    }

    @Test func theStoreIsBoundedAndAWindowOfZeroKeepsNone() throws {
        var state = F.state()
        for index in 0..<(RecentlyRemoved.maxPerUID + 20) { try post("n\(index)", at: Double(index), state: &state) }
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, all: true), caller: F.user, now: F.now + 1000)
        #expect(state.restorableCount == RecentlyRemoved.maxPerUID)
        let first = try removed(state, at: 1001)
        #expect(first.count == RecentlyRemoved.maxPerUID)
        #expect(!first.contains { $0.notification.identifier == "n0" }, "the oldest received go first")
        let page = try state.listRemovedNotifications(ListRemovedNotificationsParams(limit: 3), caller: F.user, now: F.now + 1001).result
        #expect(page.notifications.count == 3 && page.more)

        var off = F.state(CoreConfiguration(timeZone: .utc))
        off.configuration.undoWindow = 0
        try post("n1", state: &off)
        try remove(["n1"], at: 1, state: &off)
        #expect(off.restorableCount == 0)
    }

    @Test func badParamsNameTheMember() throws {
        var state = F.state()
        #expect(ruleError { try restore(RestoreNotificationsParams(app: F.app), at: 0, state: &state) }?.path == ["identifiers"])
        #expect(ruleError { try restore(RestoreNotificationsParams(identifiers: ["n1"]), at: 0, state: &state) }?.path == ["app"])
        #expect(ruleError { try restore(RestoreNotificationsParams(app: F.app, identifiers: []), at: 0, state: &state) }?.path == ["identifiers"])
        #expect(ruleError { try state.listRemovedNotifications(ListRemovedNotificationsParams(limit: -1), caller: F.user, now: F.now) }?.path == ["limit"])
    }

    @Test func aSnapshotKeepsWhatCanBeRestored() throws {
        var state = F.state()
        try post("n1", state: &state)
        try post("n2", at: 1, state: &state)
        try remove(["n1", "n2"], at: 10, state: &state)
        var back = F.state()
        let restoredAll = back.restoreRemovedNotifications(state.storedRemovedNotifications)
        #expect(restoredAll)
        #expect(back.storedRemovedNotifications == state.storedRemovedNotifications)
        #expect(try restore(at: 20, state: &back).restored == 2)
        var reversed = F.state()
        try remove(["n1"], at: 5, state: &state)  // nothing left to remove: no new removal
        try post("n3", at: 2, state: &state)
        try remove(["n3"], at: 11, state: &state)
        let outOfOrder = reversed.restoreRemovedNotifications(state.storedRemovedNotifications.reversed())
        #expect(outOfOrder, "put back in the order of the removals, not refused (issue 49)")
        #expect(Set(reversed.storedRemovedNotifications) == Set(state.storedRemovedNotifications))
        #expect(try restore(at: 20, state: &reversed).delivered.map(\.notification.identifier) == ["n3"], "the last removal is still the last")
        #expect(try restore(at: 21, state: &reversed).restored == 2)
    }

    /// Issue 49, finding 3: the wall clock stepped back between two removals (NTP, a person
    /// setting the time) made the next start refuse the snapshot, and lost every uid's state.
    @Test func aClockSteppedBackBetweenTwoRemovalsLosesNothing() throws {
        let clock = ManualClock(F.now)
        var state = F.state()
        for identifier in ["n1", "n2", "n3"] { try post(identifier, state: &state) }
        clock.advance(by: 100)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n1"]), caller: F.user, now: clock.now())
        clock.advance(by: -2)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n2"]), caller: F.user, now: clock.now())
        clock.advance(by: -1)
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["n3"]), caller: F.user, now: clock.now())
        #expect(state.storedRemovedNotifications.map(\.removedAt) == [F.now + 100, F.now + 98, F.now + 97], "times run backwards")

        var back = F.state()
        let restoredAll = back.restoreRemovedNotifications(state.storedRemovedNotifications)
        #expect(restoredAll)
        #expect(back.storedRemovedNotifications == state.storedRemovedNotifications)
        #expect(try removed(back, at: 99).map(\.notification.identifier) == ["n3", "n2", "n1"], "most recently removed first, by removal")

        // Each expires by its own time, wherever it is: at 697.5 only n3 (removed at 97) is
        // past the window, though it is the last removal.
        #expect(try removed(back, at: 697.5).map(\.notification.identifier) == ["n2", "n1"])
        #expect(try restore(at: 697.5, state: &back).delivered.map(\.notification.identifier) == ["n2"], "n3 expired, freed by the prune")
        #expect(back.restorableCount == 1)
        #expect(try restore(at: 698, state: &back).delivered.map(\.notification.identifier) == ["n1"])
    }

    /// Issue 49, finding 11: an undo into a list full of notifications held for the summary
    /// answered `restored: 0` and threw the removal away.
    @Test func anUndoTheListHasNoRoomForKeepsTheRemovalAndSaysWhy() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = 3
        var state = F.state(configuration)
        _ = try state.setSummary(SetSummaryParams(apps: [F.app], times: ["09:00"]), caller: F.user, now: F.now)  // F.now is 08:00
        // Two held for the 09:00 summary, removed together; then three more fill the list.
        try post("s1", at: 0, state: &state)
        try post("s2", at: 1, state: &state)
        try remove(["s1", "s2"], at: 10, state: &state)
        for index in 1...3 { try post("h\(index)", at: 20, state: &state) }
        #expect(try state.listNotifications(ListNotificationsParams(app: F.app, state: .scheduled), caller: F.user).result.notifications.count == 3)

        let refused = ruleError { try restore(at: 30, state: &state) }
        #expect(refused?.code == .invalidParams && refused?.limit == 3 && refused?.path == [])
        #expect(refused?.reason.contains("None of the 2 removed notifications could go back.") == true, "\(String(describing: refused))")
        #expect(refused?.reason.contains("--max-notifications") == true && refused?.reason.contains("stay restorable") == true)
        let kept = try removed(state, at: 31)
        #expect(Set(kept.map(\.notification.identifier)) == ["s1", "s2"] && kept.allSatisfy { $0.removedAt == F.now + 10 }, "kept as they were")
        let named = ruleError { try restore(RestoreNotificationsParams(app: F.app, identifiers: ["s2"]), at: 32, state: &state) }
        #expect(named?.path == ["identifiers"] && named?.reason.hasPrefix("The removed notification could not go back.") == true)
        #expect(state.restorableCount == 2)

        // Room for one: it goes back, and the other stays restorable, in the same removal.
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["h3"]), caller: Self.chatApp, now: F.now + 40)
        #expect(try restore(at: 50, state: &state).restored == 1)
        let left = try removed(state, at: 51)
        #expect(left.count == 1 && left.first?.removedAt == F.now + 10)

        // The summary delivered, the held ones make room as delivered ones do.
        _ = try state.deliverSummary(DeliverSummaryParams(), caller: F.user, now: F.now + 60)
        #expect(try restore(at: 61, state: &state).restored == 1)
        #expect(state.restorableCount == 0)
    }
}
