import Foundation
import HeraldCore
import ServiceLifecycle

/// Delivers the scheduled summary on time: every `interval` of the injected clock it
/// delivers, one summary per uid, the scheduled notifications whose summary time has come.
///
/// Scheduled notifications carry their summary time (`deliverAt`), taken from their own
/// uid's schedule when they were held, so a wake after it delivers each uid's summary at
/// that uid's time, and a change of any uid's schedule needs no rescheduling. Tests move a
/// ``ManualClock`` instead of waiting. Put it after the server in the `ServiceGroup`, so
/// that it stops first.
package struct SummaryService: Service {
    package let clock: any HeraldClock
    /// Seconds between two looks at what is due.
    package let interval: Double
    /// Delivers what is due at the time given (``HeraldServer/deliverDueSummaries(now:)``).
    package let deliverDue: @Sendable (Date) -> Void

    package init(clock: any HeraldClock, interval: Double = 1, deliverDue: @escaping @Sendable (Date) -> Void) {
        self.clock = clock
        self.interval = interval
        self.deliverDue = deliverDue
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                deliverDue(clock.now())
            }
        }
    }
}
