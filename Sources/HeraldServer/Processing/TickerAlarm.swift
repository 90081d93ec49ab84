import Foundation
import Synchronization

/// Wakes the server's ticker before the end of its sleep when a request makes a Focus
/// change due sooner, such as `set-focus` with an `until` half a second away.
///
/// The ticker sleeps until just past the earliest Focus change it knows of, or a second; a
/// change a request makes due before then would otherwise wait for that round. A request
/// that may change Focuses announces the next change after the lock: one due before the
/// sleep's horizon (the change it ends just past, or its end) cuts it short, and one
/// announced while the ticker is between sleeps (its round may have read the state before
/// the request changed it) cuts the next sleep short at once if due before that one's
/// horizon. Either way the ticker plans again from the state; a needless early wake costs
/// one round, and the change a sleep already serves, announced again, wakes nothing.
package final class TickerAlarm: Sendable {
    private struct Sleep {
        /// A change due before this wakes the ticker; nil while it is not asleep.
        var horizon: Date?
        /// The ticker, once it waits.
        var waiter: CheckedContinuation<Void, Never>?
        /// Whether a change was announced before the ticker began to wait: it does not.
        var rung = false
        /// The earliest change announced while the ticker was not asleep.
        var announced: Date?
    }

    private let sleep = Mutex(Sleep())

    package init() {}

    /// Sleeps for `delay`, or until a Focus change due before `horizon` (on the wall clock:
    /// the change the sleep ends just past, or the sleep's end) is announced, or was since
    /// the last sleep.
    func sleep(for delay: Duration, unlessAChangeIsDueBefore horizon: Date) async {
        let announcedSooner = sleep.withLock { sleep -> Bool in
            let sooner = sleep.announced.map { $0 < horizon } ?? false
            sleep = Sleep(horizon: sooner ? nil : horizon)
            return sooner
        }
        if announcedSooner { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: delay) }
            group.addTask { await self.waitForAlarm() }
            await group.next()
            group.cancelAll()
            wake()
        }
    }

    /// Announces that the next Focus change is due at `next` (nil: none is); wakes the
    /// ticker when it is due before the sleep's horizon.
    package func focusChange(dueAt next: Date?) {
        guard let next else { return }
        let waiter = sleep.withLock { sleep -> CheckedContinuation<Void, Never>? in
            guard let horizon = sleep.horizon else {
                sleep.announced = min(sleep.announced ?? next, next)
                return nil
            }
            guard next < horizon else { return nil }
            sleep.rung = true
            defer { sleep.waiter = nil }
            return sleep.waiter
        }
        waiter?.resume()
    }

    private func waitForAlarm() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = sleep.withLock { sleep -> Bool in
                guard sleep.horizon != nil, !sleep.rung else { return false }
                sleep.waiter = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// Ends the sleep, however it ended: the waiter, if any, is resumed.
    private func wake() {
        let waiter = sleep.withLock { sleep -> CheckedContinuation<Void, Never>? in
            defer { sleep = Sleep() }
            return sleep.waiter
        }
        waiter?.resume()
    }
}
