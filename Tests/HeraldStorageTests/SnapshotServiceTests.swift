import Dispatch
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import HeraldStorage

/// The snapshot service on a ``ManualClock``: the tests move time instead of waiting for it.
@Suite("Snapshot service")
struct SnapshotServiceTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    static let executor = DedicatedExecutor(label: "herald-snapshot-service-tests")

    /// What the service sees of the state: its change count, and who waits for it to pass.
    final class Source: Sendable {
        private struct Changes {
            var count: UInt64 = 1
            var waiters: [(after: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        }

        let state: HeraldState
        private let changes = Mutex(Changes())

        init(_ state: HeraldState) { self.state = state }

        var count: UInt64 { changes.withLock { $0.count } }
        /// How many wait for a change: the service at rest.
        var waiting: Int { changes.withLock { $0.waiters.count } }

        /// A change: wakes those waiting for the count to pass.
        func change() {
            let woken = changes.withLock { changes in
                changes.count += 1
                let woken = changes.waiters.filter { $0.after < changes.count }
                changes.waiters.removeAll { $0.after < changes.count }
                return woken
            }
            for waiter in woken { waiter.continuation.resume() }
        }

        func waitForChange(after count: UInt64) async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = changes.withLock { changes -> Bool in
                        guard changes.count <= count, !Task.isCancelled else { return true }
                        changes.waiters.append((count, continuation))
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let woken = changes.withLock { changes in
                    defer { changes.waiters = [] }
                    return changes.waiters
                }
                for waiter in woken { waiter.continuation.resume() }
            }
        }

        var snapshotSource: SnapshotSource {
            SnapshotSource(
                copy: { (self.state, self.count) },
                waitForChange: { count in await self.waitForChange(after: count) }
            )
        }
    }

    struct NeverHappened: Error, CustomStringConvertible {
        var description: String
    }

    /// Returns once `condition` holds: an event, not a time, is waited for (10 s at most).
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw NeverHappened(description: "never happened: \(what)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    func service(_ folder: TemporaryFolder, _ source: Source, clock: ManualClock, interval: Double) throws -> SnapshotService {
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        return SnapshotService(
            writer: SnapshotWriter(store: store, generation: 0),
            source: source.snapshotSource,
            interval: interval,
            logger: logger,
            clock: clock,
            health: PersistenceHealth(folder: folder.path, policy: .refuse, startedAt: clock.now()),
            startThread: { work in Thread { work() }.start() }
        )
    }

    @Test("A snapshot is written an interval after a change, not before; with nothing changed the service sleeps on no clock")
    func periodic() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let clock = ManualClock()
        let start = clock.now()
        let source = Source(try stateWithMessages(2))
        let service = try service(folder, source, clock: clock, interval: 30)
        let group = ServiceGroup(services: [service], logger: logger)
        try await withTaskExecutorPreference(Self.executor) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                // Nothing written yet: the first interval writes.
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                clock.advance(by: 29)
                #expect(clock.sleeperCount == 1)
                #expect(!folder.files().contains("state.snapshot"))
                clock.advance(by: 1)
                try await Self.waitUntil("the periodic snapshot") { folder.files().contains("state.snapshot") }
                let written = try SnapshotFile.decode(try SnapshotStore.readAll(folder.path + "/state.snapshot"))
                #expect(written.header.generation == 1)
                #expect(written.header.createdAt == start + 30)

                // Nothing changed: the service waits for a change, on no clock, however long.
                try await Self.waitUntil("the service waits for a change") { source.waiting == 1 }
                #expect(clock.sleeperCount == 0)
                clock.advance(by: 3600)
                #expect(!folder.files().contains("state.snapshot.previous"))
                // A change: written an interval later.
                source.change()
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                clock.advance(by: 29)
                #expect(!folder.files().contains("state.snapshot.previous"))
                clock.advance(by: 1)
                try await Self.waitUntil("the second snapshot") { folder.files().contains("state.snapshot.previous") }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    @Test("Graceful shutdown wakes the service at once and writes the final snapshot")
    func finalSnapshot() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let clock = ManualClock()
        let source = Source(try stateWithMessages(3))
        let service = try service(folder, source, clock: clock, interval: 3600)
        let group = ServiceGroup(services: [service], logger: logger)
        try await withTaskExecutorPreference(Self.executor) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        #expect(clock.sleeperCount == 0)
        let written = try SnapshotFile.decode(try SnapshotStore.readAll(folder.path + "/state.snapshot"))
        #expect(written.header.interactions == 3)
        #expect(written.header.createdAt == clock.now())
    }

    @Test("While writes fail and snapshots are off, a retry every 30 s writes even an unchanged state; a final failure is recorded")
    func retriesWhileFailing() async throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let clock = ManualClock()
        let source = Source(try stateWithMessages(2))
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        writer.markWritten(changes: 1)
        let health = PersistenceHealth(folder: folder.path, policy: .refuse, startedAt: clock.now())
        // As at a start on a full disk: the pid could not be written, the state is unchanged.
        health.recordFailure(cause: "cannot record the pid", at: clock.now(), unwrittenChanges: 0)
        let service = SnapshotService(
            writer: writer, source: source.snapshotSource, interval: 0, logger: logger, clock: clock, health: health,
            startThread: { work in Thread { work() }.start() })
        let group = ServiceGroup(services: [service], logger: logger)
        try await withTaskExecutorPreference(Self.executor) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                for _ in 1...29 {
                    try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                    clock.advance(by: 1)
                }
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                #expect(!folder.files().contains("state.snapshot"))
                #expect(health.changesRefused() != nil)
                clock.advance(by: 1)
                try await Self.waitUntil("the retry") { folder.files().contains("state.snapshot") }
                try await Self.waitUntil("the failure ends") { health.failure == nil }
                #expect(health.changesRefused() == nil)

                // A change, then the folder gone: the final snapshot fails, and says so.
                // Snapshots off and writes well again: the service waits for changes only.
                try await Self.waitUntil("the service waits for a change") { source.waiting == 1 }
                source.change()
                try FileManager.default.removeItem(atPath: folder.path)
                try await Self.waitUntil("the service waits for a change") { source.waiting == 1 }
                #expect(clock.sleeperCount == 0)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        let final = try #require(health.finalFailure)
        #expect(final.cause.contains(folder.path), "\(final.cause)")
        #expect(final.unwrittenChanges == 1)
    }

    @Test("ManualClock: a sleep ends when the time reaches it, or at cancellation")
    func manualClockSleeps() async throws {
        let clock = ManualClock()
        let woke = Mutex(false)
        let sleeper = Task {
            try await clock.sleep(for: 5)
            woke.withLock { $0 = true }
        }
        try await Self.waitUntil("asleep") { clock.sleeperCount == 1 }
        clock.advance(by: 4.5)
        #expect(clock.sleeperCount == 1)
        #expect(!woke.withLock { $0 })
        clock.advance(by: 0.5)
        try await sleeper.value
        #expect(woke.withLock { $0 })

        let cancelled = Task { try await clock.sleep(for: 5) }
        try await Self.waitUntil("asleep") { clock.sleeperCount == 1 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleeperCount == 0)
    }
}
