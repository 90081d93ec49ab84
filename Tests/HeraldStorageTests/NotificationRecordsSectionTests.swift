import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// Format 7's notification list as binary records: every member comes back as it was,
/// as the JSON of formats 3 to 6 brings it back, and damage is an error naming the byte.
@Suite("Notifications as binary records")
struct NotificationRecordsSectionTests {
    typealias F = SnapshotFixtures

    /// Notifications that between them set every member the JSON of format 6 keeps, and
    /// leave each unset.
    static func varied() -> [HeraldState.StoredNotification] {
        let reasons = [
            DeliveryReason(code: .silencedByFocus, message: "Silenced by Work", causes: [.appSilenced, .senderSilenced]),
            DeliveryReason(code: .heldForSummary, message: "Held", causes: []),
            DeliveryReason(code: .cooledDown, message: "é ✓"),
        ]
        var full = HeraldNotification(
            identifier: "n-full",
            app: F.app,
            content: NotificationContent(
                title: "Eve", subtitle: "Trip", body: "Lunch? \" \\ \u{1}", threadIdentifier: "t", categoryIdentifier: "message",
                targetContentIdentifier: "target", interruptionLevel: .timeSensitive, relevanceScore: 0.1 + 0.2,
                filterCriteria: "work", badge: -3, sound: ["name": "ding", "volume": 0.75],
                attachments: [["url": "file:///tmp/a.png"]],
                userInfo: .object(JSONObject([.init(key: "z", value: 1.50), .init(key: "a", value: ["x", nil, true]), .init(key: "z", value: .number(JSONNumber(literal: "1e400")))])),
                communication: CommunicationInfo(
                    type: .sendMessage, conversationIdentifier: "c1", sender: F.eve, recipients: [F.bo, F.cy], isGroup: true, avatar: F.image,
                    mentionsCurrentUser: true, isReplyToCurrentUser: true
                )
            ),
            delivery: Delivery(
                presentation: .summary, deliverAt: F.now + 3600.125, sound: true, lightsScreen: true, breaksThroughFocus: true,
                breaksThroughSummary: true, bypassesRinger: true, announce: true, reasons: reasons
            ),
            state: .snoozed,
            receivedAt: F.now + 0.001,
            deliveredAt: F.now + 1,
            snoozedUntil: F.now + 600.5
        )
        full.actions = [
            NotificationAction(identifier: "reply", title: "Reply", options: [.foreground], textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "…")),
            NotificationAction(identifier: "mute", title: "Mute", icon: NotificationActionIcon(systemImageName: "bell.slash")),
        ]
        full.categoryOptions = [.customDismissAction, .hiddenPreviewsShowSubtitle]
        let bare = HeraldNotification(
            identifier: "", app: F.otherApp, content: NotificationContent(), delivery: Delivery(presentation: .quiet), state: .delivered,
            receivedAt: Date(timeIntervalSinceReferenceDate: -1e9)
        )
        let call = HeraldNotification(
            identifier: "n-call", app: F.otherApp,
            content: NotificationContent(title: "Bo", badge: Int.max, communication: CommunicationInfo(type: .startCall)),
            delivery: Delivery(presentation: .alert, reasons: [DeliveryReason(code: .repeatedCall, message: "Again")]), state: .scheduled,
            receivedAt: F.now, deliveredAt: nil
        )
        var minimum = call
        minimum.identifier = "n-min"
        minimum.content.badge = Int.min
        return [
            .init(uid: 1000, notification: full), .init(uid: 1000, notification: bare), .init(uid: UInt32.max, notification: call),
            .init(uid: 0, notification: minimum),
        ]
    }

    /// The section's bytes for `state`, written on one thread or many.
    static func section(_ state: HeraldState, parallel: ParallelWork? = nil) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try NotificationRecordsSection.write(state, to: &bytes, parallel: parallel)
        return bytes
    }

    /// A state restored from `bytes`, a section of type `section` alone.
    static func restored(_ bytes: [UInt8], _ section: any SnapshotSection.Type = NotificationRecordsSection.self) throws -> HeraldState {
        var state = HeraldState()
        try section.restore(from: bytes, range: bytes.indices, into: &state)
        return state
    }

    @Test("Each enum table holds every case once")
    func tables() {
        func holdsEveryCase<T: CaseIterable & Hashable>(_ table: [T]) -> Bool {
            Set(table).count == table.count && Set(table) == Set(T.allCases)
        }
        #expect(holdsEveryCase(NotificationRecordLayout.states))
        #expect(holdsEveryCase(NotificationRecordLayout.presentations))
        #expect(holdsEveryCase(NotificationRecordLayout.interruptionLevels))
        #expect(holdsEveryCase(NotificationRecordLayout.intentTypes))
        #expect(holdsEveryCase(NotificationRecordLayout.categoryOptions))
        #expect(holdsEveryCase(NotificationRecordLayout.silencedCauses))
        #expect(holdsEveryCase(NotificationRecordLayout.reasonCodes))
    }

    @Test("A record keeps every member a notification has, set or not")
    func recordRoundTrip() throws {
        // Beside the varied ones: what the JSON of format 6 did not keep (a list keeps
        // neither, but a record has them).
        var entries = Self.varied()
        entries[0].notification.delivery.appVerifiedBy = "flatpak"
        entries[3].notification.content.userInfo = .null
        let apps = [F.app, F.otherApp]
        let reasonLists = entries.map(\.notification.delivery.reasons)
        var bytes: [UInt8] = []
        InteractionRecordWriter.appending(to: &bytes) { writer in
            for (number, entry) in entries.enumerated() { writer.appendNotification(entry, app: apps.firstIndex(of: entry.notification.app)!, reasons: number) }
            for list in reasonLists { writer.appendReasons(list) }
        }
        let back = try bytes.withUnsafeBytes { raw in
            var reader = InteractionRecordReader(file: raw, range: raw.indices, appCount: apps.count, rareMembers: .json)
            var back: [HeraldState.StoredNotification] = []
            for _ in entries { back.append(try reader.nextNotification(apps: apps, reasonLists: reasonLists)) }
            // The reason lists, as the section's table holds them.
            for list in reasonLists { #expect(try reader.reasons() == list) }
            #expect(reader.isAtEnd)
            return back
        }
        #expect(back == entries)
        // A client's JSON keeps its member order, duplicate names and number literals.
        #expect(back[0].notification.content.userInfo?.objectValue?.members == entries[0].notification.content.userInfo?.objectValue?.members)
        #expect(back[0].notification.actions?.first?.textInput?.placeholder == "…")
    }

    /// A state whose list was built through the rules: delivered, held for a summary,
    /// snoozed, a communication with its interaction, replaced in place; and the varied
    /// entries restored beside them.
    static func state() throws -> HeraldState {
        var state = try F.fullState()
        _ = try state.setNotificationCategories(.init(app: F.app, categories: [CategoriesAndResponsesSectionTests.category]), caller: F.user)
        // Not an app the summary holds: delivered at once, so it can be snoozed.
        let mail = "org.example.mail"
        var content = NotificationContent(title: "Ann", body: "Lunch?", threadIdentifier: "t", categoryIdentifier: "message")
        content.userInfo = ["k": [1, 2]]
        for identifier in ["d1", "d2", "d1"] {
            _ = try state.updateContent(UpdateContentParams(app: mail, identifier: identifier, content: content), caller: F.user, now: F.now + 2)
        }
        _ = try state.updateContent(
            UpdateContentParams(app: "org.example.news", identifier: "held", content: NotificationContent(title: "News")), caller: F.user,
            now: F.now + 3)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: mail, identifier: "d2", seconds: 600), caller: F.user, now: F.now + 4)
        var stored = state.storedNotifications
        stored += Self.varied().filter { entry in !stored.contains { $0.notification.identifier == entry.notification.identifier } }
        let restored = state.restoreNotifications(stored)
        #expect(restored)
        return state
    }

    @Test("A list comes back equal to the one written, as the JSON of format 6 brings it back")
    func listRoundTrip() throws {
        let state = try Self.state()
        let stored = state.storedNotifications
        #expect(Set(stored.map(\.notification.state)) == [.delivered, .scheduled, .snoozed])
        #expect(stored.contains { $0.notification.content.communication?.sender != nil })
        let bytes = try Self.section(state)
        #expect(try Self.section(state, parallel: runOnEveryCore) == bytes)
        let back = try Self.restored(bytes)
        #expect(back.storedNotifications == stored)
        // Written again from what came back, byte for byte the same.
        #expect(try Self.section(back) == bytes)

        var json: [UInt8] = []
        try NotificationsSection.write(state, to: &json, parallel: nil)
        let fromJSON = try Self.restored(json, NotificationsSection.self)
        #expect(fromJSON.storedNotifications == back.storedNotifications)
        // What inspection shows is the same whichever section the list came from.
        #expect(NotificationRecordsSection.inspection(of: back) == NotificationsSection.inspection(of: fromJSON))
    }

    @Test("A list of many chunks comes back in order, and a duplicate is damage")
    func manyChunks() throws {
        var state = HeraldState()
        state.configuration.maxNotificationsPerUID = 10 * NotificationRecordLayout.chunkSize
        let total = 2 * NotificationRecordLayout.chunkSize + 10
        for index in 0..<total {
            _ = try state.updateContent(
                UpdateContentParams(app: index % 3 == 0 ? F.app : F.otherApp, identifier: "n\(index)", content: NotificationContent(title: "t\(index)")),
                caller: index % 2 == 0 ? F.user : F.otherUser, now: F.now + Double(index) / 1000)
        }
        let bytes = try Self.section(state, parallel: runOnEveryCore)
        let back = try Self.restored(bytes)
        #expect(back.storedNotifications == state.storedNotifications)
        // The few reason lists are written once, not in each record (whose reason message
        // alone, "Delivered as an alert, …", would be over 40 bytes).
        #expect(bytes.count < total * 48, "\(bytes.count) bytes")

        // The first record listed again at the end of the chunk.
        var entries = state.storedNotifications
        entries.append(entries[0])
        let duplicated = try Self.sectionOf(entries)
        let error = #expect(throws: SnapshotFileError.self) { try Self.restored(duplicated) }
        #expect("\(String(describing: error))".contains("lists org.example.chat n0 again"), "\(String(describing: error))")
    }

    /// A section holding `entries` as written, duplicates and all, in one chunk.
    static func sectionOf(_ entries: [HeraldState.StoredNotification]) throws -> [UInt8] {
        let apps = Array(Set(entries.map(\.notification.app))).sorted()
        var chunk: [UInt8] = []
        var reasons: [UInt8] = []
        InteractionRecordWriter.appending(to: &chunk) { writer in
            for (number, entry) in entries.enumerated() { writer.appendNotification(entry, app: apps.firstIndex(of: entry.notification.app)!, reasons: number) }
        }
        InteractionRecordWriter.appending(to: &reasons) { writer in
            writer.appendVarint(UInt64(entries.count))
            for entry in entries { writer.appendReasons(entry.notification.delivery.reasons) }
        }
        var bytes: [UInt8] = []
        bytes.appendStrings(apps)
        bytes.appendLengthPrefixed(reasons)
        bytes.appendVarint(1)
        bytes.appendLengthPrefixed(chunk)
        return bytes
    }

    @Test("Damage anywhere in the section is an error naming the file byte, never a trap")
    func damage() throws {
        let bytes = try Self.sectionOf(Self.varied())
        #expect(try Self.restored(bytes).storedNotifications.count == 4)
        var refused = 0
        for cut in 0..<bytes.count {
            #expect(throws: SnapshotFileError.self) { try Self.restored(Array(bytes[..<cut])) }
        }
        for at in bytes.indices {
            for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] where bytes[at] != value {
                var damaged = bytes
                damaged[at] = value
                do {
                    _ = try Self.restored(damaged)
                } catch let error as SnapshotFileError {
                    refused += 1
                    #expect("\(error)".contains("file byte"), "\(error)")
                }
            }
        }
        // Most changes are refused; some (a letter of a title) are a list all the same.
        #expect(refused > bytes.count)
        // An unknown flag.
        let error = #expect(throws: SnapshotFileError.self) {
            var withUnknownFlag: [UInt8] = []
            withUnknownFlag.appendStrings([F.app])
            withUnknownFlag.appendLengthPrefixed([0])
            var chunk: [UInt8] = [0, 0]
            chunk.appendVarint(1 << 40)
            withUnknownFlag.appendVarint(1)
            withUnknownFlag.appendLengthPrefixed(chunk)
            _ = try Self.restored(withUnknownFlag)
        }
        #expect("\(String(describing: error))".contains("unknown flags"), "\(String(describing: error))")
    }

    @Test("A snapshot of format 6, its list as JSON, still restores, and is written again as records")
    func formatVersion6() throws {
        let state = try Self.state()
        let file = try F.fileOfFormat6(state)
        let names = try F.sections(of: file).map(\.name)
        #expect(names.contains(NotificationsSection.name) && !names.contains(NotificationRecordsSection.name))
        let (header, back) = try SnapshotFile.decode(file)
        #expect(header.version == 6)
        #expect(back.storedNotifications == state.storedNotifications)
        #expect(back.interactionCount == state.interactionCount)
        // A start reads it whole, the store apart, as well.
        let leading = try #require(try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: file), configuration: CoreConfiguration()))
        var apart = leading.state
        var store = try leading.store.restore()
        apart.takeStore(from: &store)
        #expect(apart.storedNotifications == state.storedNotifications)

        let again = try F.file(back)
        #expect(try SnapshotFile.decode(again).header.version == 7)
        #expect(try F.sections(of: again).map(\.name).contains(NotificationRecordsSection.name))
        #expect(try !F.sections(of: again).map(\.name).contains(NotificationsSection.name))
        #expect(try SnapshotFile.decode(again).state.storedNotifications == state.storedNotifications)
        #expect(try F.json(SnapshotFile.decode(again).state) == F.json(back))
    }
}
