import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// The payload's sections: every piece comes back whole, the rules work on what came
/// back, and the records keep their order across chunks and threads.
@Suite("Snapshot payload")
struct SnapshotPayloadTests {
    typealias F = SnapshotFixtures

    static func restored(_ bytes: [UInt8]) throws -> HeraldState {
        var state = try SnapshotFile.decode(bytes).state
        state.configuration = CoreConfiguration(timeZone: .utc)
        return state
    }

    @Test("Every piece round-trips, and the rules work on what came back")
    func everyPieceRoundTrips() throws {
        let state = try F.fullState()
        var restored = try Self.restored(try F.file(state))
        #expect(try F.json(restored) == F.json(state))
        #expect(restored.interactionCount == 5)
        #expect(restored.storedAppNames == state.storedAppNames)
        #expect(restored.storedAppNames.contains { $0.utf8.first == 0 }, "the forgotten app's slot")
        let sameFocuses = restored.storedFocuses.uids == state.storedFocuses.uids
        #expect(sameFocuses)
        #expect(restored.storedFocuses.uids.map(\.uid) == [1000])
        #expect(restored.storedFocuses.uids.first?.current?.endsAt == F.now + 3600.25)
        #expect(restored.storedFocuses.uids.first?.current?.activation == 1)
        #expect(restored.storedSilencedMarks.marks.map(\.conversationIdentifier) == ["c-silenced"])
        #expect(restored.storedSummaries.map(\.uid) == [1000])
        #expect(restored.storedSummaries.first?.apps == ["org.example.news", F.app])
        #expect(restored.storedSummaries.first?.times.map { "\($0.hour):\($0.minute)" } == ["8:0", "18:30"])
        #expect(restored.storedAppSettings == state.storedAppSettings)
        #expect(restored.storedAppSettings.count == 2)
        // The silenced mark still lets the conversation's next message through, and the call
        // history was rebuilt: a second call from Bo within minutes is a repeated call.
        try F.donate(&restored, F.message("m4", conversation: "c-silenced", anyway: true), at: F.now + 2)
        let update = try restored.updateContent(
            UpdateContentParams(app: F.app, interactionIdentifier: "m4", content: NotificationContent(title: "Eve")),
            caller: F.user,
            now: F.now + 2
        )
        #expect(update.result.delivery.reasons.map(\.code.rawValue).contains("notifiedAnyway"))
        #expect(restored.storedFocuses.uids.first?.current?.activation == 1)
    }

    @Test("Each piece alone round-trips, and an empty state is empty again")
    func eachPieceAlone() throws {
        let empty = HeraldState()
        #expect(try F.json(Self.restored(try F.file(empty))) == F.json(empty))
        var focusOnly = HeraldState()
        let sleep = HeraldState.StoredFocus(
            uid: 7, definitions: [FocusConfiguration(name: "Sleep", allowedApps: ["a"], schedules: [FocusSchedule(days: ["mon"], start: "22:00", end: "07:00")])],
            manual: nil, current: .init(name: "Sleep", reason: .schedule, endsAt: F.now, activation: 41, windowStart: F.now - 60), nextChange: F.now
        )
        // A choice by hand another host made (herald-sync), and one to off.
        let fromDesk = HeraldState.StoredFocus(
            uid: 8, definitions: [FocusConfiguration(name: "Work")],
            manual: .init(name: "Work", until: F.now + 60, endsAt: F.now + 60, origin: FocusOrigin(host: "desk", reason: .until)),
            current: .init(name: "Work", reason: .until, endsAt: F.now + 60, activation: 40, windowStart: nil), nextChange: F.now + 60
        )
        let offFromLaptop = HeraldState.StoredFocus(
            uid: 9, definitions: [], manual: .init(name: nil, until: nil, endsAt: nil, origin: FocusOrigin(host: "laptop")), current: nil,
            nextChange: nil
        )
        let restoredFocus = focusOnly.restoreFocuses(activations: 41, uids: [sleep, fromDesk, offFromLaptop])
        #expect(restoredFocus)
        let focusBack = try Self.restored(try F.file(focusOnly)).storedFocuses
        #expect(focusBack.activations == 41)
        #expect(focusBack.uids == [sleep, fromDesk, offFromLaptop])
        var marks = HeraldState()
        let marked = marks.restoreSilencedMarks(activation: 3, marks: [.init(uid: 5, app: "a", conversationIdentifier: "c")])
        #expect(marked)
        #expect(try Self.restored(try F.file(marks)).storedSilencedMarks.marks == marks.storedSilencedMarks.marks)
        var summary = HeraldState()
        let scheduled = summary.restoreSummary(uid: 9, apps: ["a", "b"], times: [(0, 0, 0), (12, 30, 15), (23, 59, 59)])
        #expect(scheduled)
        let summaryBack = try Self.restored(try F.file(summary)).storedSummaries.first!
        #expect(summaryBack.apps == ["a", "b"])
        #expect(summaryBack.times.map { [$0.hour, $0.minute, $0.second] } == [[0, 0, 0], [12, 30, 15], [23, 59, 59]])
        var notifications = HeraldState()
        for (index, level) in [InterruptionLevel.active, .passive, .timeSensitive].enumerated() {
            _ = try notifications.updateContent(
                UpdateContentParams(app: F.app, identifier: "n-\(index)", content: NotificationContent(title: "t\(index)", interruptionLevel: level)),
                caller: F.user,
                now: F.now + Double(index)
            )
        }
        let notificationsBack = try Self.restored(try F.file(notifications)).storedNotifications
        #expect(notifications.storedNotifications.count == 3)
        #expect(notificationsBack == notifications.storedNotifications)
        var settings = HeraldState()
        let set = settings.restoreAppSettings([.init(uid: 7, app: "a", authorization: .denied, capabilities: .defaults)])
        #expect(set)
        #expect(try Self.restored(try F.file(settings)).storedAppSettings == settings.storedAppSettings)
        var requests = HeraldState()
        let waiting: [HeraldState.StoredAuthorizationRequest] = [
            .init(uid: 7, app: "b", requestedAt: F.now), .init(uid: 8, app: "a", requestedAt: F.now + 0.25),
        ]
        let recorded = requests.restoreAuthorizationRequests(waiting)
        #expect(recorded)
        #expect(try Self.restored(try F.file(requests)).storedAuthorizationRequests == waiting)
    }

    @Test("A call's record keeps its members' order and duplicates, so a retry after a restart is a retry")
    func callRecordComesBackWhole() throws {
        var state = HeraldState()
        let large = JSONValue.object(JSONObject((0..<2000).map { .init(key: "k\($0)", value: [.number(JSONNumber($0)), ["n": nil]]) }))
        let duplicates = try JSONParser.parse(#"{"a":1,"b":{"c":true,"c":false},"a":2.5}"#)
        try F.donate(&state, F.call("k1", record: large))
        try F.donate(&state, F.call("k2", record: duplicates))
        var restored = try Self.restored(try F.file(state))
        var records: [String: JSONValue] = [:]
        restored.forEachStoredRecord(at: restored.storedRecordPositions) { record in
            if case .startCall(let call) = record.interaction.intent { records[record.interaction.identifier!] = call.callRecordToCallBack }
        }
        #expect(records["k2"]?.compactText == duplicates.compactText)
        #expect(records["k1"] == large)
        #expect(throws: Never.self) { try F.donate(&restored, F.call("k1", record: large)) }
        #expect(throws: Never.self) { try F.donate(&restored, F.call("k2", record: duplicates)) }
        #expect(throws: RuleError.self) { try F.donate(&restored, F.call("k2", record: ["a": 1])) }
    }

    @Test("Records across several chunks keep their donation order, encoded on one thread or many")
    func recordsAcrossChunks() throws {
        var state = HeraldState(configuration: CoreConfiguration(maxInteractions: 200_000))
        let total = InteractionRecordLayout.chunkSize + 1500
        for index in 0..<total {
            let message = SendMessageIntent(sender: F.cy, conversationIdentifier: "c\(index % 50)")
            try F.donate(&state, Interaction(identifier: "m\(index)", direction: .incoming, intent: .sendMessage(message)), at: F.now + Double(index))
        }
        // Deleted out of order: their entries in the donation order are left behind, stale.
        for index in stride(from: 0, to: total, by: 7) {
            _ = try state.deleteInteractions(DeleteInteractionsParams(app: F.app, identifiers: ["m\(index)"]), caller: F.user, now: F.now)
        }
        func order(_ state: HeraldState) -> [String] {
            var identifiers: [String] = []
            state.forEachStoredRecord(at: state.storedRecordPositions) { identifiers.append($0.interaction.identifier!) }
            return identifiers
        }
        let serial = try F.file(state)
        let parallel = try F.file(state, parallel: runOnEveryCore)
        // Compared as one Bool: a failing comparison of two long arrays is diffed for minutes.
        let sameBytes = serial == parallel
        #expect(sameBytes)
        let restored = try Self.restored(parallel)
        #expect(restored.interactionCount == total - (total + 6) / 7)
        let sameOrder = order(restored) == order(state)
        #expect(sameOrder)
    }

    @Test("A full notification list of format 6 is the JSON one writer writes, on one thread or many, and comes back in order")
    func notificationListInRuns() throws {
        var state = HeraldState()
        state.configuration.maxNotificationsPerUID = 10_000
        let total = 2 * NotificationsSection.entriesPerRun + 100
        let other = Caller(uid: 1001, gid: 1001, pid: 11, isAdministrator: false)
        for index in 0..<total {
            // Quotes, backslashes and brackets inside strings: the cut between entries must
            // not fall there.
            let content = NotificationContent(title: #"t\#(index) "}]," \"#, body: "{[\(index % 7)")
            _ = try state.updateContent(
                UpdateContentParams(app: F.app, identifier: "n-\(index)", content: content),
                caller: index.isMultiple(of: 3) ? other : F.user,
                now: F.now + Double(index)
            )
        }
        try #require(state.storedNotifications.count == total)
        var serial: [UInt8] = []
        try NotificationsSection.write(state, to: &serial, parallel: nil)
        var parallel: [UInt8] = []
        try NotificationsSection.write(state, to: &parallel, parallel: runOnEveryCore)
        var whole: [UInt8] = []
        NotificationsSection.json(of: state, .snapshot).write(to: &whole)
        // Compared as one Bool each: a failing comparison of long arrays is diffed for minutes.
        let sameAsOneEncoder = serial == whole
        let sameOnEveryCore = parallel == whole
        #expect(sameAsOneEncoder)
        #expect(sameOnEveryCore)
        #expect(NotificationsSection.ListJSON.elements(in: whole, range: whole.indices)?.count == total)

        // The runs decode, every entry in its place; the state restored from them is the list.
        let inRuns = try #require(NotificationsSection.entriesInRuns(in: whole, range: whole.indices))
        #expect(inRuns.map(\.notification.identifier) == state.storedNotifications.map(\.notification.identifier))
        let restored = try Self.restored(try F.file(state))
        let sameList = restored.storedNotifications == state.storedNotifications
        #expect(sameList)

        // JSON laid out otherwise (whitespace) is decoded whole, to the same list.
        let pretty = Array(try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: Data(whole)), options: .prettyPrinted))
        #expect(NotificationsSection.ListJSON.elements(in: pretty, range: pretty.indices) == nil)
        #expect(NotificationsSection.entriesInRuns(in: pretty, range: pretty.indices) == nil)
        var fromPretty = HeraldState()
        fromPretty.configuration.maxNotificationsPerUID = 10_000
        try NotificationsSection.restore(from: pretty, range: pretty.indices, into: &fromPretty)
        #expect(fromPretty.storedNotifications.count == total)

        // A run that does not decode is reported as the whole section's damage.
        var damaged = whole
        let lastTitle = try #require(damaged.lastIndex(of: UInt8(ascii: "t")))
        damaged[lastTitle] = UInt8(ascii: "\"")
        #expect(NotificationsSection.entriesInRuns(in: damaged, range: damaged.indices) == nil)
        var fromDamaged = HeraldState()
        #expect(throws: SnapshotFileError.self) {
            try NotificationsSection.restore(from: damaged, range: damaged.indices, into: &fromDamaged)
        }
    }

    @Test("Every enum case has one record number")
    func everyEnumCaseHasOneRecordNumber() {
        func check<T: CaseIterable & Hashable>(_ table: [T]) {
            #expect(table.count == T.allCases.count && Set(table) == Set(T.allCases), "\(T.self)")
        }
        check(InteractionRecordLayout.handleTypes)
        check(InteractionRecordLayout.suggestionTypes)
        check(InteractionRecordLayout.outgoingMessageTypes)
        check(InteractionRecordLayout.callCapabilities)
        check(InteractionRecordLayout.destinationTypes)
        check(InteractionRecordLayout.audioRoutes)
    }

    @Test("The sections are written in their list's order, once each, in the current format version")
    func sectionsInOrder() throws {
        let bytes = try F.file(try F.fullState())
        #expect(try F.sections(of: bytes).map(\.name) == SnapshotPayload.writtenSections.map { $0.name })
        #expect(!SnapshotPayload.writtenSections.contains { $0.name == FocusSection.name || $0.name == SummarySection.name })
        #expect(try SnapshotFile.decode(bytes).header.version == SnapshotPayload.formatVersion)
        #expect(try SnapshotFile.decode(bytes).header.encoding == SnapshotHeader.sectionsEncoding)
        // The small pieces are JSON that Foundation reads.
        let binary = [InteractionsSection.name, LeadingChecksumSection.name, NotificationRecordsSection.name]
        for section in try F.sections(of: bytes) where !binary.contains(section.name) {
            #expect((try? JSONSerialization.jsonObject(with: Data(section.bytes))) != nil, "\(section.name)")
        }
    }
}
