import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// Snapshots of format version 3 kept one host-wide Focus and summary (the sections
/// `focus` and `summary`, retired in format 4): they load with that Focus and summary
/// given to every uid that has interactions or notifications.
@Suite("Snapshot format version 3")
struct FormatVersion3Tests {
    typealias F = SnapshotFixtures

    /// A format 3 snapshot: uid 1000's and 1001's interactions, uid 1002's notification,
    /// the host Focus `Work` on until an hour after `now` (activation 7, with a silenced
    /// conversation of uid 1000), and the host summary.
    static func version3File() throws -> [UInt8] {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.admin, now: F.now)
        try F.donate(&state, F.message("m1", conversation: "c-silenced", anyway: true))
        try F.donate(&state, F.call("k1"), app: F.otherApp, caller: F.otherUser)
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "n1", content: NotificationContent(title: "t")),
            caller: Caller(uid: 1002, gid: 1002, pid: 12, isAdministrator: false),
            now: F.now
        )
        let current = try F.sectionsOfFormat6(state)
        let until = F.now.timeIntervalSinceReferenceDate + 3600
        let focus = #"{"activation":7,"configuration":{"allowMentions":false,"allowRepeatedCalls":true,"allowTimeSensitive":true,"#
            + #""allowedApps":["org.example.phone"],"allowedPeople":[{"handle":{"value":"cy"}}],"name":"Work","until":\#(until)}}"#
        let silenced = #"{"activation":7,"conversations":[{"app":"org.example.chat","conversationIdentifier":"c-silenced","uid":1000}]}"#
        let summary = #"{"apps":["org.example.news"],"times":[{"hour":18,"minute":30}]}"#
        var sections: [(name: String, bytes: [UInt8])] = []
        for section in current {
            switch section.name {
            case InteractionsSection.name:
                sections.append(section)
                sections.append((FocusSection.name, Array(focus.utf8)))
            case SilencedSection.name:
                sections.append((SilencedSection.name, Array(silenced.utf8)))
                sections.append((SummarySection.name, Array(summary.utf8)))
            case let name where SnapshotPayload.sections.first(where: { $0.name == name })?.isIn(version: 3) != true:
                break  // a section version 4 added
            default:
                sections.append(section)
            }
        }
        // In the order heraldd writes them now, which a reader of any version takes.
        #expect(sections.map(\.name).sorted() == SnapshotPayload.sections.filter { $0.isIn(version: 3) }.map { $0.name }.sorted())
        return F.sealed(F.payload(sections), interactions: state.interactionCount, version: 3)
    }

    @Test("The host Focus and summary become every uid's with interactions or notifications")
    func migrates() throws {
        let (header, loaded) = try SnapshotFile.decode(try Self.version3File())
        #expect(header.version == 3)
        var state = loaded
        state.configuration = CoreConfiguration(timeZone: .utc)
        let focuses = state.storedFocuses
        #expect(focuses.activations == 7)
        #expect(focuses.uids.map(\.uid) == [1000, 1001, 1002])
        for uid in focuses.uids {
            #expect(uid.definitions.map(\.name) == ["Work"])
            #expect(uid.definitions.first?.allowedApps == ["org.example.phone"])
            #expect(uid.current?.activation == 7 && uid.current?.reason == .until && uid.current?.endsAt == F.now + 3600)
        }
        #expect(state.storedSummaries.map(\.uid) == [1000, 1001, 1002])
        #expect(state.storedSummaries.allSatisfy { $0.apps == ["org.example.news"] })
        // The silenced conversation still counts: same activation, so notify-anyway lets the next one through.
        try F.donate(&state, F.message("m2", conversation: "c-silenced", anyway: true), at: F.now + 2)
        let update = try state.updateContent(
            UpdateContentParams(app: F.app, interactionIdentifier: "m2", content: NotificationContent(title: "Eve")), caller: F.user, now: F.now + 2
        )
        #expect(update.result.delivery.reasons.map(\.code.rawValue).contains("notifiedAnyway"))
        // Its until still ends it, for each uid.
        state.advanceFocuses(now: F.now + 3600)
        #expect(state.takeFocusChanges().filter { !$0.isOn }.map(\.uid).sorted() == [1000, 1001, 1002])
    }

    @Test("Written again, it is a current-format snapshot without the retired sections")
    func rewritten() throws {
        let state = try SnapshotFile.decode(try Self.version3File()).state
        let bytes = try F.file(state)
        #expect(try SnapshotFile.decode(bytes).header.version == SnapshotPayload.formatVersion)
        let names = try F.sections(of: bytes).map(\.name)
        #expect(!names.contains(FocusSection.name) && !names.contains(SummarySection.name))
        #expect(try SnapshotFile.decode(bytes).state.storedFocuses.uids == state.storedFocuses.uids)
    }
}
