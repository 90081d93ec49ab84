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
        /// The earliest change announced since the last sleep ended.
        var announced: Date?

        /// Whether a change was announced that is due before the horizon: the ticker does
        /// not wait, or waits no more.
        var isRung: Bool {
            guard let horizon, let announced else { return false }
            return announced < horizon
        }
    }

    private let sleep = Mutex(Sleep())

    package init() {}

    /// Sleeps for `delay`, or until a Focus change due before `horizon` (on the wall clock:
    /// the change the sleep ends just past, or the sleep's end) is announced, or was since
    /// the last sleep.
    func sleep(for delay: Duration, unlessAChangeIsDueBefore horizon: Date) async {
        let rung = sleep.withLock { sleep -> Bool in
            sleep.horizon = horizon
            return sleep.isRung
        }
        if rung {
            wake()
            return
        }
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
            sleep.announced = min(sleep.announced ?? next, next)
            guard sleep.isRung else { return nil }
            defer { sleep.waiter = nil }
            return sleep.waiter
        }
        waiter?.resume()
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
            defer { sleep = Sleep() }
            return sleep.waiter
        }
        waiter?.resume()
    }
}
