import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// Issue 31: the burst cooldown a person set survives a snapshot; its bursts do not.
@Suite("Burst cooldowns in a snapshot")
struct CooldownsSectionTests {
    typealias F = SnapshotFixtures

    @Test("Each uid's window comes back; the default is not written, and the bursts start afresh")
    func roundTrip() throws {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.user)
        _ = try state.setCooldown(SetCooldownParams(seconds: 120, uid: 1002), caller: F.admin)
        _ = try state.setCooldown(SetCooldownParams(seconds: 60), caller: F.otherUser)
        let first = try state.updateContent(
            UpdateContentParams(app: F.app, content: NotificationContent(title: "Ann")), caller: Caller(uid: 1002, gid: 1002, pid: 12, isAdministrator: false),
            now: F.now)
        #expect(first.result.delivery.sound)

        let bytes = try F.file(state)
        let section = try #require(try F.sections(of: bytes).first { $0.name == CooldownsSection.name })
        let json = try JSONSerialization.jsonObject(with: Data(section.bytes)) as? NSDictionary
        #expect(json == ["cooldowns": [["seconds": 0, "uid": 1000], ["seconds": 120, "uid": 1002]]] as NSDictionary)

        var back = try SnapshotFile.decode(bytes).state
        #expect(back.storedCooldowns.map(\.uid) == [1000, 1002] && back.storedCooldowns.map(\.seconds) == [0, 120])
        #expect(try back.getCooldown(UIDParams(), caller: F.otherUser).result.seconds == 60)
        let again = try back.updateContent(
            UpdateContentParams(app: F.app, content: NotificationContent(title: "Ann")), caller: Caller(uid: 1002, gid: 1002, pid: 12, isAdministrator: false),
            now: F.now + 1)
        #expect(again.result.delivery.sound, "the burst under way was not kept")
    }

    @Test("A uid twice, or a window out of range, is damage")
    func damageIsRefused() throws {
        for text in [#"{"cooldowns":[{"seconds":0,"uid":1},{"seconds":30,"uid":1}]}"#, #"{"cooldowns":[{"seconds":601,"uid":1}]}"#] {
            var state = HeraldState()
            let error = #expect(throws: SnapshotFileError.self) {
                try CooldownsSection.restore(json: ArraySlice(Array(text.utf8)), at: 0, into: &state)
            }
            #expect(error?.reason.contains("the cooldowns section") == true, "\(String(describing: error))")
        }
        var state = HeraldState()
        #expect(throws: SnapshotFileError.self) {
            try CooldownsSection.restore(json: ArraySlice(Array(#"{"cooldowns":[{"uid":1}]}"#.utf8)), at: 0, into: &state)
        }
    }
}
