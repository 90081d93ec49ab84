import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// A snapshot writes the notification list from its entries where the list keeps them:
/// byte for byte what writing it from a copy of every notification gives (the way format 7
/// was first written), on lists made by the rules, replaced, evicted, removed, delivered
/// from a summary and snoozed, and restored.
@Suite("Notification records written in place")
struct NotificationRecordsInPlaceTests {
    typealias F = SnapshotFixtures

    /// The section written from ``HeraldState/storedNotifications``: an array of every
    /// notification, the app and reason tables found by value over it, chunk after chunk.
    static func sectionFromCopies(_ state: HeraldState) -> [UInt8] {
        let entries = state.storedNotifications
        func table<Value: Hashable>(_ key: (HeraldState.StoredNotification) -> Value) -> (values: [Value], numbers: [Int]) {
            var numbers: [Value: Int] = [:]
            var values: [Value] = []
            let entryNumbers = entries.map { entry in
                let value = key(entry)
                if let number = numbers[value] { return number }
                numbers[value] = values.count
                values.append(value)
                return values.count - 1
            }
            return (values, entryNumbers)
        }
        let (apps, appNumbers) = table { $0.notification.app }
        let (reasonLists, reasonNumbers) = table { $0.notification.delivery.reasons }
        var bytes: [UInt8] = []
        bytes.appendStrings(apps)
        var reasons: [UInt8] = []
        InteractionRecordWriter.appending(to: &reasons) { writer in
            writer.appendVarint(UInt64(reasonLists.count))
            for list in reasonLists { writer.appendReasons(list) }
        }
        bytes.appendLengthPrefixed(reasons)
        let chunkSize = NotificationRecordLayout.chunkSize
        let starts = Array(stride(from: 0, to: entries.count, by: chunkSize))
        bytes.appendVarint(UInt64(starts.count))
        for start in starts {
            var chunk: [UInt8] = []
            InteractionRecordWriter.appending(to: &chunk) { writer in
                for position in start..<min(start + chunkSize, entries.count) {
                    writer.appendNotification(entries[position], app: appNumbers[position], reasons: reasonNumbers[position])
                }
            }
            bytes.appendLengthPrefixed(chunk)
        }
        return bytes
    }

    /// The list's order as it was found before (a copy of each uid's entries, sorted): each
    /// uid's delivered ones by when they were delivered, then the others by when they came.
    static func orderFromCopies(_ state: HeraldState) -> [HeraldState.StoredNotification] {
        var stored: [HeraldState.StoredNotification] = []
        for uid in state.notifications.lists.keys.sorted() {
            let list = state.notifications.lists[uid]!
            let delivered = list.entries.values.filter { $0.deliveredStamp != nil }.sorted { $0.deliveredStamp! < $1.deliveredStamp! }
            let others = list.entries.values.filter { $0.deliveredStamp == nil }.sorted { $0.stamp < $1.stamp }
            for entry in delivered + others {
                stored.append(.init(uid: uid, notification: entry.notification(app: list.apps.name(of: entry.app))))
            }
        }
        return stored
    }

    /// A list made by the rules at random: three uids, a Focus and a summary that decide
    /// differently, identifiers taken again (a replacement), evictions at a small
    /// `--max-notifications`, removals, snoozes and summaries delivered; over three chunks.
    static func randomState(_ random: inout SeededRandom) throws -> HeraldState {
        var state = try F.fullState()
        state.configuration.maxNotificationsPerUID = NotificationRecordLayout.chunkSize + 100
        let callers = [F.user, F.otherUser, Caller(uid: 1002, gid: 1002, pid: 12, isAdministrator: false)]
        let apps = [F.app, F.otherApp, "org.example.news", "org.example.mail"]
        let levels: [InterruptionLevel?] = [nil, .passive, .active, .timeSensitive]
        var now = F.now + 10
        let steps = 3 * NotificationRecordLayout.chunkSize + 500
        for step in 0..<steps {
            now += Double(random.next() % 1000) / 1000
            let caller = callers[Int(random.next() % 3)]
            let app = apps[Int(random.next() % 4)]
            switch random.next() % 100 {
            case 0..<88:
                var content = NotificationContent(title: "t\(step)", body: random.next() % 2 == 0 ? "body \(step)" : nil)
                content.interruptionLevel = levels[Int(random.next() % 4)]
                if random.next() % 10 == 0 { content.userInfo = ["step": .number(JSONNumber(literal: "\(step)"))] }
                let identifier = "n\(random.next() % 6000)"
                _ = try? state.updateContent(
                    UpdateContentParams(app: app, identifier: identifier, content: content), caller: caller, now: now)
            case 88..<93:
                _ = try? state.removeNotifications(
                    RemoveNotificationsParams(app: app, identifiers: ["n\(random.next() % 6000)"]), caller: caller, now: now)
            case 93..<98:
                _ = try? state.snoozeNotification(
                    SnoozeNotificationParams(app: app, identifier: "n\(random.next() % 6000)", seconds: 60), caller: caller, now: now)
            default:
                // None in the last steps, so that some notifications stay scheduled
                // whatever the seed (a summary delivered late could take them all).
                guard step < steps - 2000 else { break }
                _ = try? state.deliverSummary(DeliverSummaryParams(), caller: caller, now: now)
            }
        }
        return state
    }

    @Test("The section written in place is the section written from copies, on varied lists")
    func sameBytes() throws {
        var random = SeededRandom(for: "NotificationRecordsInPlaceTests.sameBytes")
        let made = try Self.randomState(&random)
        let stored = made.storedNotifications
        #expect(stored.count > 2 * NotificationRecordLayout.chunkSize, "\(stored.count) notifications")
        #expect(Set(stored.map(\.notification.state)) == [.delivered, .scheduled, .snoozed])
        #expect(Set(stored.map(\.uid)).count == 3)
        // More than one reason list, and more than one app in a uid's list.
        #expect(Set(stored.map(\.notification.delivery.reasons)).count > 3)

        // Restored, the same list shares its reason lists as the section's table does.
        let restored = try NotificationRecordsSectionTests.restored(NotificationRecordsSectionTests.section(made))
        #expect(restored.storedNotifications == stored)

        // Equal reason lists of their own storage, and an equal list met again after another.
        var apart = HeraldState()
        var entries = NotificationRecordsSectionTests.varied()
        for (index, uid) in [1000, 7, 1000].enumerated() {
            var again = entries[2]
            again.uid = UInt32(uid)
            again.notification.identifier = "again-\(index)"
            again.notification.delivery.reasons = [DeliveryReason(code: .repeatedCall, message: "Again")]
            entries.append(again)
        }
        let restoredApart = apart.restoreNotifications(entries)
        #expect(restoredApart)

        for state in [made, restored, apart, try NotificationRecordsSectionTests.state(), HeraldState()] {
            #expect(state.storedNotifications == Self.orderFromCopies(state))
            let expected = Self.sectionFromCopies(state)
            #expect(try NotificationRecordsSectionTests.section(state) == expected)
            #expect(try NotificationRecordsSectionTests.section(state, parallel: runOnEveryCore) == expected)
            #expect(try NotificationRecordsSectionTests.restored(expected).storedNotifications == state.storedNotifications)
        }
    }

    @Test("A snapshot's copy writes the same snapshot, and leaves the live lists their own")
    func snapshotCopy() throws {
        var random = SeededRandom(for: "NotificationRecordsInPlaceTests.snapshotCopy")
        var state = try Self.randomState(&random)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let copy = state.forSnapshot
        #expect(try SnapshotFile(encoding: copy, generation: 1, now: now).payload == SnapshotFile(encoding: state, generation: 1, now: now).payload)
        // What only the live state reads is left out of the copy, and kept in the state.
        #expect(copy.notifications.lists.values.allSatisfy { $0.search.documentCount == 0 && $0.deliveredOrder.isEmpty })
        #expect(state.notifications.lists.values.allSatisfy { $0.search.documentCount > 0 && !$0.deliveredOrder.isEmpty })
        // The copy is no reader of the live lists: a change to one copies nothing first
        // (``SharedState``), where a copy of the whole state holds every list.
        #expect(state.heldNotificationLists(of: nil).isEmpty)
        let whole = state
        #expect(state.heldNotificationLists(of: nil).count == state.notifications.lists.count)
        withExtendedLifetime(whole) {}
        withExtendedLifetime(copy) {}
    }

    @Test("A list visited from any position gives the entries of the whole visit from there")
    func visitsFromAnyPosition() throws {
        var random = SeededRandom(for: "NotificationRecordsInPlaceTests.visitsFromAnyPosition")
        let state = try Self.randomState(&random)
        let order = state.storedNotificationOrder
        let stored = state.storedNotifications
        #expect(order.count == stored.count)
        for _ in 0..<50 {
            let lower = Int(random.next() % UInt64(order.count + 1))
            let upper = lower + Int(random.next() % UInt64(order.count - lower + 1))
            var visited: [String] = []
            state.forEachStoredNotification(in: order, at: lower..<upper) { entry in
                visited.append("\(entry.uid) \(entry.app) \(entry.identifier) \(entry.state)")
            }
            let expected = stored[lower..<upper].map {
                "\($0.uid) \($0.notification.app) \($0.notification.identifier) \($0.notification.state)"
            }
            #expect(visited == expected)
        }
    }
}
