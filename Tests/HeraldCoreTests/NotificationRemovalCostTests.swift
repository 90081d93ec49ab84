import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 49, finding 1: removing a list of notifications with many distinct words held the
/// state's lock for minutes, since the index's compaction searched a prefix table once per
/// word it dropped. These run at ten times the probe's sizes; they check what is left,
/// never a time (the old compaction would not have finished them in an hour).
@Suite struct NotificationRemovalCostTests {
    typealias F = Fixtures

    /// Notifications, and distinct words each: every word starts with `or`, so that all
    /// of them share one entry of the prefix table, as order numbers share a few.
    static let notifications = 20_000
    static let wordsEach = 32

    /// Seven digits each, so that no word is the start of another (a search is by prefix).
    static func word(_ notification: Int, _ index: Int) -> String {
        let number = String(notification * wordsEach + index)
        return "or" + String(repeating: "0", count: 7 - number.count) + number
    }

    private func filledState() throws -> HeraldState {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = Self.notifications
        // Every notification kept: 640,000 distinct words weigh more than 32 MiB as the
        // index counts them, and the cost of removal is the subject here.
        configuration.maxNotificationBytesPerUID = .max
        var state = F.state(configuration)
        for notification in 0..<Self.notifications {
            let body = (0..<Self.wordsEach).map { Self.word(notification, $0) }.joined(separator: " ")
            _ = try state.updateContent(
                UpdateContentParams(app: F.app, identifier: "n\(notification)", content: NotificationContent(title: "Order", body: body)),
                caller: F.user, now: F.now + Double(notification))
        }
        return state
    }

    private func found(_ state: HeraldState, _ query: String, limit: Int = 10) throws -> [String] {
        try state.notificationListView.searchNotifications(SearchNotificationsParams(query: query, limit: limit), caller: F.user)
            .result.notifications.map(\.identifier)
    }

    @Test func removingMostThenAllOfAListOfDistinctWordsIsLinear() throws {
        var state = try filledState()
        let index = try #require(state.notifications.lists[F.user.uid]?.search)
        #expect(index.counts.words == Self.notifications * Self.wordsEach + 1, "every number, and the title")
        #expect(index.wordsListedByLead == index.counts.words)

        // Three quarters removed by name: the index drops its gone documents once they
        // weigh half the kept, and the words only they had.
        let removedCount = Self.notifications * 3 / 4
        let named = (0..<removedCount).map { "n\($0)" }
        let first = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: named), caller: F.user, now: F.now + 1e6)
        #expect(first.outcome.result.removed == removedCount)
        let left = Self.notifications - removedCount
        let compacted = try #require(state.notifications.lists[F.user.uid]?.search)
        #expect(compacted.documentCount < Self.notifications, "compacted: \(compacted.documentCount)")
        #expect(compacted.liveCount == left)
        #expect(compacted.counts.words == compacted.documentCount * Self.wordsEach + 1, "the words of the documents numbered still")
        #expect(compacted.wordsListedByLead == compacted.counts.words, "the prefix table lists exactly the words kept")

        // Searches read the same as before: a removed one's word finds nothing, a kept one's
        // finds it, and a prefix every word shares finds the newest.
        #expect(try found(state, Self.word(0, 5)) == [])
        #expect(try found(state, Self.word(removedCount - 1, 31)) == [])
        #expect(try found(state, Self.word(removedCount, 0)) == ["n\(removedCount)"])
        #expect(try found(state, Self.word(Self.notifications - 1, 7)) == ["n\(Self.notifications - 1)"])
        #expect(try found(state, "or", limit: 3) == (Self.notifications - 3..<Self.notifications).reversed().map { "n\($0)" })
        #expect(try found(state, "order", limit: 1) == ["n\(Self.notifications - 1)"])

        // Then "clear all", as the person does it (kept for undo).
        let all = try state.removeNotifications(RemoveNotificationsParams(app: F.app, all: true), caller: F.user, now: F.now + 1e6 + 1)
        #expect(all.outcome.result.removed == left)
        #expect(state.notifications.lists[F.user.uid] == nil, "the emptied list and its index are gone")
        #expect(try found(state, "or") == [])
        #expect(state.restorableCount == RecentlyRemoved.maxPerUID)
    }
}
