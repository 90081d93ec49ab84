import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// The server's alarm on a ``ManualClock``: the test moves time to what is due instead of
/// waiting for it, and the server sleeps until then in one sleep, not a second at a time.
@Suite("The server's alarm")
struct DueRoundTests {
    static let admin = Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true)
    static let user = Caller(uid: 1000, gid: 1000, pid: 2, isAdministrator: false)
    static let executor = DedicatedExecutor(label: "herald-due-round-tests")

    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never happened: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test("A summary and a snooze's end come at their time, each after one sleep; retention at its own")
    func deliversOnTime() async throws {
        try await withTaskExecutorPreference(Self.executor) { try await deliversOnTimeHere() }
    }

    private func deliversOnTimeHere() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))  // 08:00:00 UTC
        let start = clock.now()
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.retention = 3600
        var state = HeraldState(configuration: configuration)
        _ = try state.setSummary(.init(apps: ["org.example.news"], times: ["08:00:10"], uid: Self.user.uid), caller: Self.admin, now: start)
        let held = try state.updateContent(
            .init(app: "org.example.news", identifier: "n1", content: NotificationContent(title: "t")), caller: Self.user, now: start
        )
        #expect(held.result.delivery.deliverAt == start + 10)
        let shared = SharedState(state)
        var environment = MethodEnvironment(
            state: shared, clock: clock, statistics: ServerStatistics(), openRPCDocument: ["openrpc": "1.3.2"])
        let summaries = NIOLockedValueBox<[NotificationSummary]>([])
        let returned = NIOLockedValueBox<[String]>([])
        environment.recordSummary = { summary in summaries.withLockedValue { $0.append(summary) } }
        environment.recordSnoozeEnded = { delivered in returned.withLockedValue { $0.append(delivered.notification.identifier) } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-due-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ready = NIOLockedValueBox(false)
        let server = HeraldServer(
            configuration: ServerConfiguration(
                listening: .path(folder.appendingPathComponent("herald.sock").path, mode: 0o600), threads: 1),
            environment: environment,
            recorder: DiscardingResultRecorder(),
            logger: Logger(label: "test"),
            onReady: { _ in ready.withLockedValue { $0 = true } }
        )
        let serving = Task(executorPreference: Self.executor) { try await server.run() }
        defer { serving.cancel() }

        // One sleep, until the summary time: nothing before it.
        try await Self.waitUntil("the server sleeps") { clock.sleeperCount == 1 }
        clock.advance(by: 9.5)
        #expect(clock.sleeperCount == 1, "asleep until the summary time")
        #expect(summaries.withLockedValue { $0.isEmpty }, "nothing before 08:00:10")
        clock.advance(by: 0.5)
        try await Self.waitUntil("the summary") { !summaries.withLockedValue { $0.isEmpty } }
        let delivered = summaries.withLockedValue { $0 }
        #expect(delivered.map(\.uid) == [1000] && delivered.first?.notifications.map(\.identifier) == ["n1"])
        #expect(delivered.first?.deliveredAt == start + 10)

        // A snooze made while the server sleeps until the notification's expiry (an hour
        // after its delivery) ends that sleep: the server sleeps again until the snooze ends.
        try await Self.waitUntil("the server sleeps") { clock.sleeperCount == 1 }
        _ = try shared.withLock { state in
            try state.snoozeNotification(.init(app: "org.example.news", identifier: "n1", seconds: 60), caller: Self.user, now: clock.now())
        }
        try await Self.waitUntil("the server sleeps again") { clock.sleeperCount == 1 && shared.read { $0.nextDue } == start + 70 }
        clock.advance(by: 59)
        #expect(returned.withLockedValue { $0.isEmpty }, "the snooze has not ended")
        clock.advance(by: 1)
        try await Self.waitUntil("the snooze's end") { returned.withLockedValue { $0 } == ["n1"] }
        #expect(summaries.withLockedValue { $0.count } == 1, "the summary came once")

        // Retention: the notification, delivered again at 08:01:10, is forgotten an hour later.
        try await Self.waitUntil("the server sleeps") { clock.sleeperCount == 1 }
        clock.advance(by: 3599)
        #expect(shared.read { $0.notificationsDropped.expired } == 0)
        clock.advance(by: 1.5)
        try await Self.waitUntil("the expiry") { shared.read { $0.notificationsDropped.expired } == 1 }
        #expect(ready.withLockedValue { $0 })
    }
}
