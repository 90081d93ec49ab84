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
        #expect(try Self.json(state) == FormatVersion1Fixture.json)
    }

    /// The state as that build printed it: version 1 had no notification lists nor
    /// authorization requests, which restore empty, and whose (empty) members are all that
    /// JSON lacks.
    static func json(_ state: HeraldState) throws -> String {
        #expect(state.storedNotifications.isEmpty)
        #expect(state.storedAuthorizationRequests.isEmpty)
        return try SnapshotFixtures.json(state).replacingOccurrences(of: #""notifications":{"notifications":[]},"#, with: "")
            .replacingOccurrences(of: #""categories":{"sets":[]},"#, with: "")
            .replacingOccurrences(of: #""responses":{"pending":[]},"#, with: "")
            .replacingOccurrences(of: #""authorizationRequests":[],"#, with: "")
    }

    @Test("Written again, it is a snapshot of the current version of the same state")
    func rewritten() throws {
        let state = try SnapshotFile.decode(FormatVersion1Fixture.bytes).state
        let again = try SnapshotFile.decode(try SnapshotFixtures.file(state))
        #expect(again.header.version == SnapshotHeader.currentVersion)
        #expect(try Self.json(again.state) == FormatVersion1Fixture.json)
    }

    @Test("The rules work on what it held: the Focus, the silenced mark, the call history")
    func rulesWork() throws {
        var state = try SnapshotFile.decode(FormatVersion1Fixture.bytes).state
        #expect(state.storedFocus.configuration?.name == "Work")
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
