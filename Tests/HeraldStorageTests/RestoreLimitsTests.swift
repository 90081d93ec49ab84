import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// A restore keeps heraldd's own limits, not the defaults: a list kept under a raised
/// `--max-notification-bytes` would otherwise lose its oldest at every restart.
@Suite("Restoring under the daemon's limits")
struct RestoreLimitsTests {
    @Test("A notification list restores whole under the limit it was kept under, and is cut under a lower one")
    func notificationBytes() throws {
        var raised = CoreConfiguration()
        raised.maxNotificationBytesPerUID = 1 << 30
        var state = HeraldState(configuration: raised)
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        for index in 0..<200 {
            let content = NotificationContent(title: "Story \(index)", body: String(repeating: "word\(index) ", count: 80))
            _ = try state.updateContent(
                UpdateContentParams(app: "org.example.news", identifier: "n\(index)", content: content),
                caller: caller,
                now: Date(timeIntervalSince1970: 1_800_000_000 + Double(index))
            )
        }
        #expect(state.notificationCount == 200)
        let bytes = try snapshotBytes(state)
        #expect(try SnapshotFile.decode(bytes, configuration: raised).state.notificationCount == 200)

        var lower = CoreConfiguration()
        lower.maxNotificationBytesPerUID = 65_536
        let kept = try SnapshotFile.decode(bytes, configuration: lower).state.notificationCount
        #expect(kept > 0 && kept < 200, "\(kept) of 200 kept under 64 KiB")
    }
}
