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

    /// What the service sees of the state, and what it did to it.
    final class Source: Sendable {
        let state: HeraldState
        let changes = Mutex<UInt64>(1)
        let prunes = Mutex<[Date]>([])

        init(_ state: HeraldState) { self.state = state }

        var snapshotSource: SnapshotSource {
            SnapshotSource(
                copy: { (self.state, self.changes.withLock { $0 }) },
                pruneExpired: { now in self.prunes.withLock { $0.append(now) } }
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

    @Test("A snapshot is written when the clock passes the interval, not before; retention runs every second")
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
                for second in 1...29 {
                    try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                    clock.advance(by: 1)
                    try await Self.waitUntil("prune \(second)") { source.prunes.withLock { $0.count } == second }
                }
                #expect(!folder.files().contains("state.snapshot"))
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                clock.advance(by: 1)
                try await Self.waitUntil("the periodic snapshot") { folder.files().contains("state.snapshot") }
                let written = try SnapshotFile.decode(try SnapshotStore.readAll(folder.path + "/state.snapshot"))
                #expect(written.header.generation == 1)
                #expect(written.header.createdAt == start + 30)
                #expect(source.prunes.withLock { $0 }.first == start + 1)

                // Nothing changed: the next interval writes nothing; a change is written at the one after.
                for _ in 1...30 {
                    try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                    clock.advance(by: 1)
                }
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                #expect(!folder.files().contains("state.snapshot.previous"))
                source.changes.withLock { $0 += 1 }
                for _ in 1...30 {
                    try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
                    clock.advance(by: 1)
                }
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
                source.changes.withLock { $0 += 1 }
                try FileManager.default.removeItem(atPath: folder.path)
                try await Self.waitUntil("the service sleeps") { clock.sleeperCount == 1 }
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
