import FoundationEssentials
import HeraldCore
import Synchronization

/// The daemon's one timer: it sleeps until the next thing due in the state (a Focus change,
/// a summary time, a snooze's end, an expiry), and wakes sooner when a change makes
/// something due before that, such as `set-focus` with an `until` half a second away.
///
/// A change announces the next thing due after the lock (``due(at:)``): one due before the
/// sleep's horizon (the thing it sleeps until, or the end of its longest sleep) cuts it
/// short, and one announced while the daemon is between sleeps (its round may have read the
/// state before the change) cuts the next sleep short at once if due before that one's
/// horizon. Either way the daemon plans again from the state; a needless early wake costs
/// one round, and the thing a sleep already waits for, announced again, wakes nothing. While
/// asleep, an announcement at or after the horizon costs one atomic load: every change
/// announces, and most announce nothing sooner.
package final class DueAlarm: Sendable {
    private struct Sleep {
        /// Something due before this wakes the sleeper; nil while it is not asleep.
        var horizon: Date?
        /// The sleeper, once it waits.
        var waiter: CheckedContinuation<Void, Never>?
        /// The earliest thing announced since the last sleep ended.
        var announced: Date?

        /// Whether something was announced that is due before the horizon: the sleeper does
        /// not wait, or waits no more.
        var isRung: Bool {
            guard let horizon, let announced else { return false }
            return announced < horizon
        }
    }

    private let sleep = Mutex(Sleep())
    /// The horizon of the sleep under way, in microseconds since 2001 (`Int64.max` between
    /// sleeps, when every announcement is kept): read without the lock by ``due(at:)``.
    private let armedHorizon = Atomic<Int64>(.max)

    package init() {}

    /// Sleeps on `clock` until `horizon`, or until something due before it is announced, or
    /// was since the last sleep.
    package func sleep(until horizon: Date, on clock: any HeraldClock) async {
        let rung = sleep.withLock { sleep -> Bool in
            sleep.horizon = horizon
            armedHorizon.store(Self.microseconds(horizon), ordering: .releasing)
            return sleep.isRung
        }
        if rung {
            wake()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: horizon) }
            group.addTask { await self.waitForAlarm() }
            await group.next()
            group.cancelAll()
            wake()
        }
    }

    /// Announces that something is due at `next` (nil: nothing is); wakes the sleeper when
    /// it is due before the sleep's horizon.
    package func due(at next: Date?) {
        guard let next, Self.microseconds(next) < armedHorizon.load(ordering: .acquiring) else { return }
        let waiter = sleep.withLock { sleep -> CheckedContinuation<Void, Never>? in
            sleep.announced = min(sleep.announced ?? next, next)
            guard sleep.isRung else { return nil }
            defer { sleep.waiter = nil }
            return sleep.waiter
        }
        waiter?.resume()
    }

    /// Wakes the sleeper to plan again now: the wall clock was set, the last connection
    /// closed, memory is to be trimmed.
    package func ring() {
        due(at: .distantPast)
    }

    private func waitForAlarm() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = sleep.withLock { sleep -> Bool in
                guard sleep.horizon != nil, !sleep.isRung else { return false }
                sleep.waiter = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// Ends the sleep, however it ended: the waiter, if any, is resumed.
    private func wake() {
        let waiter = sleep.withLock { sleep -> CheckedContinuation<Void, Never>? in
            defer {
                sleep = Sleep()
                armedHorizon.store(.max, ordering: .releasing)
            }
            return sleep.waiter
        }
        waiter?.resume()
    }

    private static func microseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSinceReferenceDate * 1_000_000).rounded(.down)
        return value >= 9.2e18 ? .max - 1 : value <= -9.2e18 ? .min : Int64(value)
    }
}
