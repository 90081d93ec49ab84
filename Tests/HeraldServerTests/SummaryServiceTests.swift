import Dispatch
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import Synchronization
import Testing

@testable import HeraldServer

/// The summary service on a ``ManualClock``: the test moves time to the summary time
/// instead of waiting for it.
@Suite("Summary service")
struct SummaryServiceTests {
    static let admin = Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true)
    static let user = Caller(uid: 1000, gid: 1000, pid: 2, isAdministrator: false)

    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never happened: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    static let executor = DedicatedExecutor(label: "herald-summary-service-tests")

    @Test("Held notifications are delivered when the clock reaches the summary time, once")
    func deliversOnTime() async throws {
        try await withTaskExecutorPreference(Self.executor) { try await deliversOnTimeHere() }
    }

    private func deliversOnTimeHere() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))  // 08:00:00 UTC
        var state = HeraldState(configuration: CoreConfiguration(timeZone: TimeZone(identifier: "UTC")!))
        _ = try state.setSummary(.init(apps: ["org.example.news"], times: ["08:00:10"], uid: Self.user.uid), caller: Self.admin, now: clock.now())
        let held = try state.updateContent(
            .init(app: "org.example.news", identifier: "n1", content: NotificationContent(title: "t")), caller: Self.user, now: clock.now()
        )
        #expect(held.result.delivery.deliverAt == clock.now() + 10)
        let shared = SharedState(state)
        let summaries = Mutex<[NotificationSummary]>([])
        let service = SummaryService(clock: clock) { now in
            let delivered = shared.withLock { $0.deliverDueSummaries(now: now) }
            summaries.withLock { $0 += delivered }
        }
        let task = Task(executorPreference: Self.executor) { try await service.run() }
        for _ in 1...9 {
            try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
            clock.advance(by: 1)
        }
        try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
        #expect(summaries.withLock { $0.isEmpty }, "nothing before 08:00:10")
        clock.advance(by: 1)
        try await Self.waitUntil("the summary") { summaries.withLock { !$0.isEmpty } }
        for _ in 1...3 {
            try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
            clock.advance(by: 1)
        }
        try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
        let delivered = summaries.withLock { $0 }
        #expect(delivered.map(\.uid) == [1000] && delivered.first?.notifications.map(\.identifier) == ["n1"])
        #expect(delivered.first?.deliveredAt == Date(timeIntervalSince1970: 1_800_000_010))
        task.cancel()
        _ = try? await task.value
    }
}
