import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// Snapshots of format version 1, what every heraldd wrote before sections (what users
/// have on disk), still load: the same state, which the next snapshot writes in today's
/// format.
@Suite("Snapshot format version 1")
struct FormatVersion1Tests {
    @Test("A version-1 snapshot heraldd wrote loads into the state it held")
    func loads() throws {
        let (header, state) = try SnapshotFile.decode(FormatVersion1Fixture.bytes)
        #expect(header.version == 1)
        #expect(header.encoding == SnapshotHeader.version1Encoding)
        #expect(state.interactionCount == 4)
        // Every piece, as that build's `heraldctl inspect-snapshot --json` printed it.
        #expect(try Self.sameAsFixture(state))
    }

    /// Whether the state holds what that build printed: version 1 had no notification
    /// lists, categories, responses, authorization requests nor cooldowns (they restore empty), and
    /// kept the host's Focus and summary, which now are every uid's (``rulesWork()`` checks
    /// them); each silenced mark now names its activation.
    static func sameAsFixture(_ state: HeraldState) throws -> Bool {
        #expect(state.storedNotifications.isEmpty)
        #expect(state.storedAuthorizationRequests.isEmpty)
        #expect(state.storedRemovedNotifications.isEmpty)
        func stripped(_ text: String, dropping: [String]) throws -> NSDictionary {
            // A client's JSON shows as the client sent it, no longer as the pairs that keep it.
            var object = try FormatVersion4Tests.plain(text) as! [String: Any]
            for key in dropping { object[key] = nil }
            if var silenced = object["silenced"] as? [String: Any], let marks = silenced["conversations"] as? [[String: Any]] {
                silenced["conversations"] = marks.map { mark in mark.filter { $0.key != "activation" } }
                object["silenced"] = silenced
            }
            return object as NSDictionary
        }
        return try stripped(SnapshotFixtures.json(state), dropping: ["focuses", "summaries", "notifications", "categories", "responses", "authorizationRequests"] + FormatVersion4Tests.newerSections)
            == stripped(FormatVersion1Fixture.json, dropping: ["focus", "summary"])
    }

    @Test("Written again, it is a snapshot of the current version of the same state")
    func rewritten() throws {
        let state = try SnapshotFile.decode(FormatVersion1Fixture.bytes).state
        let again = try SnapshotFile.decode(try SnapshotFixtures.file(state))
        #expect(again.header.version == SnapshotHeader.currentVersion)
        #expect(try Self.sameAsFixture(again.state))
    }

    @Test("The rules work on what it held: the Focus, the silenced mark, the call history")
    func rulesWork() throws {
        var state = try SnapshotFile.decode(FormatVersion1Fixture.bytes).state
        // The host's Focus and summary are now uid 0's, the one uid with interactions: the
        // Focus on by hand in the same activation as its silenced mark, until its until.
        let focus = state.storedFocuses.uids
        #expect(focus.map(\.uid) == [0])
        #expect(focus.first?.definitions.map(\.name) == ["Work"])
        #expect(focus.first?.current?.activation == 1)
        #expect(focus.first?.current?.reason == .until)
        #expect(state.storedSummaries.map(\.uid) == [0])
        #expect(state.storedSummaries.first?.apps == ["org.example.news", "org.example.chat"])
        #expect(state.storedSilencedMarks.marks.map(\.conversationIdentifier) == ["c-eve"])
        #expect(state.storedAppNames.count == 3)
        let root = Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true)
        let call = Interaction(
            identifier: "k-2",
            direction: .incoming,
            intent: .startCall(StartCallIntent(contacts: [Person(handle: PersonHandle(value: "dee"), displayName: "Dee")]))
        )
        let now = Date()
        _ = try state.donate(DonateParams(app: "org.example.phone", interaction: call), caller: root, now: now)
        #expect(state.interactionCount == 5)
    }

    @Test("Version-1 encodings that were never released are unsupported, not damage")
    func unreleasedEncodings() throws {
        for encoding: UInt32 in [0, 1, SnapshotHeader.sectionsEncoding] {
            let bytes = resealedHeader(FormatVersion1Fixture.bytes) { put(encoding, at: 12, in: &$0) }
            #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(bytes) }
            do {
                _ = try SnapshotFile.decode(bytes)
            } catch {
                #expect(error.code == .unsupportedVersion, "encoding \(encoding): \(error)")
            }
        }
    }
}
