import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// heraldd tells systemd where it stands through `sd_notify`, as `Type=notify` expects.
@Suite("sd_notify, end to end")
struct ServiceNotificationEndToEndTests {
    @Test("READY=1 with a STATUS once serving, watchdog pings when asked, STOPPING=1 on SIGTERM")
    func readyStatusWatchdogStopping() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-notify-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notify = try NotifySocket(path: folder.appendingPathComponent("notify").path)

        // WATCHDOG_USEC=2 s: heraldd pings at half of it. Without WATCHDOG_PID, sd_watchdog_enabled
        // applies it to whichever process reads it.
        let herald = try HeraldProcess(
            .standalone,
            arguments: ["--log-target", "none"],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"]
        )
        let ready = try #require(notify.waitFor("READY=1"))
        // The STATUS= that follows READY=1 comes in a datagram of its own; the watchdog's
        // thread may have sent one before.
        let status = ready + notify.messages(within: 0.5)
        #expect(status.joined(separator: "\n").contains("STATUS="))
        _ = try herald.connect().call("stats")
        #expect(notify.waitFor("WATCHDOG=1", timeout: 5) != nil)

        herald.process.signal(SIGTERM)
        #expect(notify.waitFor("STOPPING=1") != nil)
        #expect(herald.waitForExit(timeout: 20) == 0)
    }
}
