import Foundation
import HeraldTesting
import Testing

/// Figures for herald-notify (printed, not asserted: the machine is shared): time from a
/// presenter line written to heraldd's socket (a stand-in until heraldd has presenter
/// events) to the bubble existing in dunst, over 200 notifications, and its memory.
@Suite(.serialized, .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
struct HeraldNotifyFiguresEndToEndTests {
    static let count = 200

    @Test func lineToBubbleLatencyAndMemory() throws {
        let session = try DesktopSession()
        let monitor = try NotifyCallMonitor(session: session)
        let daemon = try StandInDaemon(path: session.folder.appendingPathComponent("herald.sock").path)
        let notify = try HeraldNotifyProcess(session: session, socket: daemon.path)
        let (connection, _) = try daemon.acceptPresenter()
        #expect(notify.waitForLog(containing: "showing notifications through dunst"))
        let memoryBefore = residentKiB(pid: notify.process.pid) ?? 0

        var sent: [Double] = []
        for index in 0..<Self.count {
            let line = PresenterLines.delivered(
                PresenterLines.notification(identifier: "f\(index)", content: ["title": "Figure \(index)", "body": "body \(index)"])
            )
            sent.append(Date().timeIntervalSince1970)
            try connection.send(line)
            // One at a time: the next line once this bubble exists.
            #expect(session.wait(timeout: 20) { monitor.answeredNotifyTimes().count > index })
        }
        let calls = monitor.answeredNotifyCalls()
        #expect(calls.count == Self.count)
        let latencies = zip(sent, calls).map { ($1.answered - $0) * 1000 }
        let (median, p99) = medianAndP99(latencies)
        // Of which: herald-notify (line written → Notify sent), and dunst (Notify → its answer).
        let (ownMedian, ownP99) = medianAndP99(zip(sent, calls).map { ($1.called - $0) * 1000 })
        let (serverMedian, serverP99) = medianAndP99(calls.map { ($0.answered - $0.called) * 1000 })
        let memoryAfter = residentKiB(pid: notify.process.pid) ?? 0
        print(
            "herald-notify figures: presenter line → bubble in dunst over \(Self.count): median \(String(format: "%.2f", median)) ms, "
                + "p99 \(String(format: "%.2f", p99)) ms (line → Notify sent: median \(String(format: "%.2f", ownMedian)), "
                + "p99 \(String(format: "%.2f", ownP99)); Notify → dunst's answer: median \(String(format: "%.2f", serverMedian)), "
                + "p99 \(String(format: "%.2f", serverP99))); VmRSS \(memoryBefore) KiB subscribed, \(memoryAfter) KiB after \(Self.count) bubbles"
        )
        #expect(latencies.allSatisfy { $0 >= 0 && $0 < 20_000 })
        withExtendedLifetime(connection) {}
    }
}
