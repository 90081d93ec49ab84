import FoundationEssentials
import Synchronization

/// The source of "now" for the rules, injected so that tests can set the time.
package protocol HeraldClock: Sendable {
    func now() -> Date

    /// Returns once `seconds` of this clock have passed; throws `CancellationError` if the
    /// task is cancelled first. For periodic work (snapshots, retention).
    func sleep(for seconds: Double) async throws

    /// Returns once this clock reads `deadline` or later; throws `CancellationError` if the
    /// task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension HeraldClock {
    /// Real time: the monotonic clock's sleep.
    package func sleep(for seconds: Double) async throws {
        try await Task.sleep(for: .seconds(max(0, seconds)))
    }

    package func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()))
    }
}

/// The wall clock.
package struct SystemClock: HeraldClock {
    package init() {}
    package func now() -> Date { Date() }

    /// The monotonic clock's sleep to the wall clock's `deadline`, and 2 ms past it: the two
    /// clocks may disagree by a little, and work due at `deadline` must find it passed. A
    /// step of the wall clock meanwhile is not seen: the sleeper hears of it otherwise
    /// (``ClockStepWatch`` in heraldd).
    package func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()) + 0.002)
    }
}

/// A clock that tests move by hand: `sleep` returns when `advance` or `set` reaches its
/// deadline, so a test of periodic work advances time instead of waiting for it.
package final class ManualClock: HeraldClock, @unchecked Sendable {
    private struct Sleeper {
        var id: UInt64
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private var current: Date
    private var sleepers: [Sleeper] = []
    private var nextSleeperID: UInt64 = 0
    private let lock = Mutex(())

    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = start
    }

    package func now() -> Date {
        lock.withLock { _ in current }
    }

    package func advance(by seconds: TimeInterval) {
        set(now() + seconds)
    }

    package func set(_ date: Date) {
        let due: [Sleeper] = lock.withLock { _ in
            current = date
            let due = sleepers.filter { $0.deadline <= date }
            sleepers.removeAll { $0.deadline <= date }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many tasks are asleep on this clock: a test waits for the work it drives to be
    /// asleep before it moves the time.
    package var sleeperCount: Int {
        lock.withLock { _ in sleepers.count }
    }

    package func sleep(for seconds: Double) async throws {
        let id = lock.withLock { _ in
            nextSleeperID += 1
            return nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock { _ in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard seconds > 0 else { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: current + seconds, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled: Sleeper? = lock.withLock { _ in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
