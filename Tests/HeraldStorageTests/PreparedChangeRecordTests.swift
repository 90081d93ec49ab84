import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// A change-log record made before the state's lock and sealed under it — a donation's,
/// or any other request's — is the record made whole under the lock, and reads back as
/// the change.
@Suite("A change's record prepared before the lock")
struct PreparedChangeRecordTests {
    typealias F = SnapshotFixtures

    @Test("Prepared, then sealed with the time, it is byte for byte the record encoded at once")
    func sealedEqualsEncoded() throws {
        var random = SeededRandom(seed: 4_404)
        let callers = [F.user, F.admin, Caller(uid: 7, gid: 8, pid: -3, isAdministrator: false, app: AppIdentity(id: "org.example.Snap", source: .flatpak))]
        for index in 0..<300 {
            let interaction = InteractionRecordBytesTests.interaction(index, &random)
            let caller = callers[index % callers.count]
            let app = index % 2 == 0 ? F.app : "org.example.ünïcode"
            let appliedAt = F.now + Double(index) * 0.125
            var encoded: [UInt8] = []
            ChangeLogFile.appendRecord(to: &encoded) {
                ChangeRecord.encodeDonation(by: caller, appliedAt: appliedAt, app: app, record: EncodedInteraction(interaction), into: &$0)
            }
            var prepared = ChangeRecord.preparedDonation(by: caller, app: app, record: EncodedInteraction(interaction))
            ChangeRecord.seal(&prepared, appliedAt: appliedAt)
            #expect(prepared == encoded, "interaction \(index)")
        }
    }

    @Test("A request's record prepared, then sealed with its time and drawn values, is the record encoded at once")
    func requestSealedEqualsEncoded() throws {
        var random = SeededRandom(seed: 9_119)
        let callers = [F.user, F.admin, Caller(uid: 7, gid: 8, pid: -3, isAdministrator: false, app: AppIdentity(id: "org.example.Snap", source: .flatpak))]
        for index in 0..<300 {
            let caller = callers[index % callers.count]
            let method = ["update-content", "set-focus", "tick:summaries", "remove-notifications"][index % 4]
            let params = Array("{\"app\":\"org.example.ünïcode\",\"n\":\(random.next() % 100_000)}".utf8)
            let generated = (0..<Int(random.next() % 4)).map { "id-\(index)-\($0)" }
            let appliedAt = F.now + Double(index) * 0.125
            var encoded: [UInt8] = []
            ChangeLogFile.appendRecord(to: &encoded) {
                ChangeRecord.encodeRequest(method: method, caller: caller, appliedAt: appliedAt, params: params, generated: generated, into: &$0)
            }
            var prepared = ChangeRecord.preparedRequest(method: method, caller: caller, params: params[...])
            ChangeRecord.sealRequest(&prepared, appliedAt: appliedAt, generated: generated)
            #expect(prepared == encoded, "request \(index)")
            let record = prepared.withUnsafeBytes { ChangeRecord(body: UnsafeRawBufferPointer(rebasing: $0[ChangeLogFile.recordOverhead...])) }
            #expect(record == ChangeRecord(method: method, caller: caller, appliedAt: appliedAt, params: params, generated: generated))
        }
    }

    @Test("A log of prepared records reads back as the donations, in order")
    func preparedRecordsReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-prepared-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ChangeLog(
            folder: folder, durability: .logEverysec, baseGeneration: 0, continuing: false,
            health: PersistenceHealth(folder: folder, policy: .refuse, startedAt: Date()))
        var random = SeededRandom(seed: 17)
        var donations: [Interaction] = []
        for index in 0..<50 {
            let interaction = InteractionRecordBytesTests.interaction(index, &random)
            donations.append(interaction)
            var record = ChangeRecord.preparedDonation(by: F.user, app: F.app, record: EncodedInteraction(interaction))
            log.append(prepared: &record, appliedAt: F.now + Double(index), answered: true)
        }
        log.commit()
        log.stop()
        var read: [ChangeRecord] = []
        let replay = ChangeLogFolder(folder: folder).replay(after: 0) { read.append($0) }
        #expect(replay.problem == nil)
        #expect(read.count == donations.count)
        for (index, record) in read.enumerated() {
            #expect(record == ChangeRecord(donationBy: F.user, appliedAt: F.now + Double(index), app: F.app, interaction: donations[index]))
        }
    }
}
