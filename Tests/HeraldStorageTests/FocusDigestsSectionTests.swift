import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// The `focusDigests` section: a uid's last digest and the running counts of its Focus on
/// come back whole, so a restart mid-Focus loses no count.
@Suite("Focus digests section")
struct FocusDigestsSectionTests {
    typealias F = SnapshotFixtures

    private static func state() throws -> HeraldState {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        _ = try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: "Work")), caller: F.user, now: F.now)
        try F.donate(&state, F.message("m1", conversation: "c-team"), at: F.now + 1)
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, interactionIdentifier: "m1", content: NotificationContent(title: "Eve")), caller: F.user, now: F.now + 1.5)
        _ = try state.updateContent(
            UpdateContentParams(app: "org.example.mail", identifier: "p1", content: NotificationContent(title: "Mail")), caller: F.user, now: F.now + 2)
        _ = try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: "Sleep")), caller: F.user, now: F.now + 10)
        _ = try state.updateContent(
            UpdateContentParams(app: "org.example.mail", identifier: "p2", content: NotificationContent(title: "Mail")), caller: F.user, now: F.now + 11.25)
        return state
    }

    @Test("The last digest and the running counts round-trip")
    func roundTrip() throws {
        let state = try Self.state()
        let restored = try SnapshotPayloadTests.restored(try F.file(state))
        #expect(try F.json(restored) == F.json(state))
        let before = state.storedFocusDigests
        let after = restored.storedFocusDigests
        #expect(after.last == before.last && after.last.count == 1 && after.last.first?.total == 2)
        #expect(after.running.map(\.digest) == before.running.map(\.digest) && after.running.map(\.activation) == before.running.map(\.activation))
        #expect(after.running.first?.digest.focus == "Sleep" && after.running.first?.digest.total == 1)
    }

    @Test("Counts that do not add up are damage")
    func damage() throws {
        let state = try Self.state()
        let bytes = try F.file(state)
        var sections = try F.sections(of: bytes)
        let index = try #require(sections.firstIndex { $0.name == FocusDigestsSection.name })
        let text = String(decoding: sections[index].bytes, as: UTF8.self)
        let broken = text.replacingOccurrences(of: "\"total\":2", with: "\"total\":3")
        #expect(broken != text)
        sections[index].bytes = Array(broken.utf8)
        let file = F.sealed(F.payload(sections), interactions: state.interactionCount)
        #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(file) }
    }
}
