import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// What a presenter missed (`subscribe-notifications`' `since`): the uid's alert and quiet
/// notifications delivered after it, the newest few, oldest first.
@Suite struct MissedNotificationsTests {
    typealias F = Fixtures

    private func put(
        _ state: inout HeraldState, _ identifier: String, _ content: NotificationContent = F.content(),
        app: String = F.otherApp, caller: Caller = F.user, now: Date
    ) throws {
        _ = try state.updateContent(UpdateContentParams(app: app, identifier: identifier, content: content), caller: caller, now: now)
    }

    @Test func theNewestDeliveredAfterSinceOldestFirst() throws {
        var state = F.state(CoreConfiguration(timeZone: .utc))
        _ = try state.setSummary(.init(apps: [F.app], times: ["09:00"], uid: F.user.uid), caller: F.admin, now: F.now)
        try put(&state, "seen", now: F.now)
        try put(&state, "a1", now: F.now + 1)
        try put(&state, "q1", F.content(.passive), now: F.now + 2)
        try put(&state, "held", app: F.app, now: F.now + 3)  // scheduled for the summary: not delivered
        try put(&state, "theirs", caller: F.otherUser, now: F.now + 4)  // another uid's
        try put(&state, "a2", now: F.now + 5)
        let view = state.notificationListView
        #expect(view.missed(uid: F.user.uid, since: F.now, limit: 20).map(\.identifier) == ["a1", "q1", "a2"])
        #expect(view.missed(uid: F.user.uid, since: F.now, limit: 2).map(\.identifier) == ["q1", "a2"])
        #expect(view.missed(uid: F.user.uid, since: F.now + 5, limit: 20).isEmpty)
        // In whole milliseconds, as the wire writes them: the deliveredAt a presenter was told
        // (a1's, written .000 for a time 0.4 ms later) names a1 as seen.
        #expect(view.missed(uid: F.user.uid, since: F.now + 0.9996, limit: 20).map(\.identifier) == ["q1", "a2"])
    }

    /// Issue 49, finding 5: the scan reads the newest delivered back, at most
    /// ``NotificationListView/missedScanLimit`` of them, never the whole list.
    @Test func theScanLooksAtTheNewestThousandDeliveredOnly() throws {
        var state = F.state(CoreConfiguration(timeZone: .utc))
        _ = try state.setSummary(.init(apps: [F.app], times: ["09:00"], uid: F.user.uid), caller: F.admin, now: F.now)
        for index in 0..<30 { try put(&state, "a\(index)", now: F.now + 1) }
        for index in 0..<NotificationListView.missedScanLimit { try put(&state, "s\(index)", app: F.app, now: F.now + 2) }
        _ = try state.deliverSummary(DeliverSummaryParams(), caller: F.user, now: F.now + 3)
        #expect(state.notificationListView.missed(uid: F.user.uid, since: F.now, limit: 20).isEmpty, "the newest 1,000 are a summary's")
        try put(&state, "last", now: F.now + 4)
        #expect(state.notificationListView.missed(uid: F.user.uid, since: F.now, limit: 20).map(\.identifier) == ["last"])
        var alerts = F.state()
        for index in 0..<3_000 { try put(&alerts, "a\(index)", now: F.now + Double(index)) }
        let missed = alerts.notificationListView(of: F.user.uid).missed(uid: F.user.uid, since: F.now, limit: 20)
        #expect(missed.map(\.identifier) == (2_980..<3_000).map { "a\($0)" }, "the newest 20, oldest first")
    }

    @Test func sinceIsForAPresenterOfOneUID() throws {
        #expect(try HeraldState.missedUID(SubscribeNotificationsParams(since: F.now), presenting: 1000) == 1000)
        #expect(try HeraldState.missedUID(SubscribeNotificationsParams(), presenting: 1000) == nil)
        let error = ruleError { try HeraldState.missedUID(SubscribeNotificationsParams(since: F.now), presenting: nil) }
        #expect(error?.code == .invalidParams && error?.path == ["since"])
    }
}
