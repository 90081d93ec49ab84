import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 28: a person's own views — their notifications across their apps, and their own
/// summary delivered early — without being an administrator, and never another uid's.
@Suite struct PersonViewsTests {
    typealias F = Fixtures

    /// The user's summary holds F.app; the other user's too. Each has one held notification,
    /// and the user one delivered notification of F.otherApp.
    private func state() throws -> HeraldState {
        var state = F.state()
        for caller in [F.user, F.otherUser] {
            _ = try state.setSummary(.init(apps: [F.app], times: ["18:00"]), caller: caller, now: F.now)
            _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: "held-\(caller.uid)", content: F.content()), caller: caller, now: F.now)
        }
        _ = try state.updateContent(UpdateContentParams(app: F.otherApp, identifier: "call", content: F.content()), caller: F.user, now: F.now + 1)
        return state
    }

    @Test func aPersonListsTheirNotificationsOfEveryAppAndNoOneElses() throws {
        let state = try state()
        let mine = try state.listNotifications(ListNotificationsParams(app: nil), caller: F.user).result.notifications
        #expect(mine.map(\.identifier) == ["call", "held-1000"])
        #expect(Set(mine.map(\.app)) == [F.app, F.otherApp])
        let others = ruleError { try state.listNotifications(ListNotificationsParams(app: nil, uid: F.otherUser.uid), caller: F.user) }
        #expect(others?.code == .permissionDenied && others?.path == ["uid"])
        #expect(ruleError { try state.listNotifications(ListNotificationsParams(app: "not an app"), caller: F.user) }?.path == ["app"])
    }

    @Test func aPersonDeliversTheirOwnSummaryOnly() throws {
        var state = try state()
        let (outcome, summaries) = try state.deliverSummary(.init(), caller: F.user, now: F.now + 60)
        #expect(outcome.result.delivered == 1 && summaries.map(\.uid) == [F.user.uid])
        let others = ruleError { try state.deliverSummary(.init(uid: F.otherUser.uid), caller: F.user, now: F.now + 60) }
        #expect(others?.code == .permissionDenied && others?.path == ["uid"])
        // The other uid's summary still waits; an administrator delivers every uid's.
        #expect(try state.deliverSummary(.init(), caller: F.admin, now: F.now + 60).outcome.result.delivered == 1)
    }
}
