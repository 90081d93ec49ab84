import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 49, finding 4: a reader of a uid's list (a search, a listing, built after the
/// state's lock) makes no change copy a list under the lock: another uid's list is never
/// held by it, and its own uid's list is copied after the lock before the change.
@Suite struct NotificationListReadersTests {
    typealias F = Fixtures

    private func post(_ identifier: String, words: String = "order shipped", caller: Caller = F.user, state: inout HeraldState) throws {
        let content = NotificationContent(title: "Shop", body: "\(words) \(identifier)")
        _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: identifier, content: content), caller: caller, now: F.now)
    }

    private func found(_ view: NotificationListView, _ query: String) throws -> Int {
        try view.searchNotifications(SearchNotificationsParams(query: query, limit: 500), caller: F.user).result.notifications.count
    }

    @Test func aReaderOfOneUIDMakesNoOtherUIDsChangeCopy() throws {
        var state = F.state()
        for index in 0..<100 { try post("a-\(index)", state: &state) }
        for index in 0..<100 { try post("b-\(index)", caller: F.otherUser, state: &state) }
        let view = state.notificationListView(of: F.user.uid)
        for index in 100..<150 { try post("b-\(index)", caller: F.otherUser, state: &state) }
        #expect(state.notificationListCopiesWhileRead == 0, "another uid's posts copy nothing")
        // The rule itself, given a list a reader holds, copies it once and counts it: what
        // the server's unsharing spares.
        try post("a-100", state: &state)
        try post("a-101", state: &state)
        #expect(state.notificationListCopiesWhileRead == 1)
        #expect(try found(view, "shipped") == 100, "the reader's list is as it read it")
    }

    @Test func aHeldListCopiedBeforeTheChangeLeavesItNothingToCopy() throws {
        var state = F.state()
        for index in 0..<100 { try post("a-\(index)", state: &state) }
        let view = state.notificationListView(of: F.user.uid)
        let holding = state.heldNotificationList(of: F.user.uid)
        let held = try #require(holding)
        state.replaceNotificationList(held, with: held.unshared())
        let stillHeld = state.heldNotificationList(of: F.user.uid) != nil
        #expect(!stillHeld)
        for index in 100..<120 { try post("a-\(index)", state: &state) }
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["a-0", "a-1"]), caller: F.user, now: F.now)
        #expect(state.notificationListCopiesWhileRead == 0)
        #expect(try found(view, "shipped") == 100, "the reader's list is as it read it")
        #expect(try found(state.notificationListView(of: F.user.uid), "shipped") == 118)
        #expect(try found(state.notificationListView(of: F.user.uid), "a") == 118, "the copy's index finds by prefix")
    }

    @Test func aListChangedMeanwhileIsNotReplaced() throws {
        var state = F.state()
        try post("a-0", state: &state)
        let view = state.notificationListView(of: F.user.uid)
        let holding = state.heldNotificationList(of: F.user.uid)
        let held = try #require(holding)
        try post("a-1", state: &state)
        state.replaceNotificationList(held, with: held.unshared())
        #expect(try found(state.notificationListView(of: F.user.uid), "shipped") == 2, "the newer list stands")
        #expect(try found(view, "shipped") == 1)
    }
}
