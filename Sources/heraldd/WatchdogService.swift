import FoundationEssentials
import HeraldProtocol
import HeraldServer
import HeraldStorage
import HeraldSystemd
import Logging
import ServiceLifecycle
import Synchronization

/// Pings systemd's watchdog (`WatchdogSec=`) at half its interval and keeps `STATUS=` current;
/// stops pinging while the state's lock has been held past ``StateLockWatch/bound``, so that
/// systemd restarts a wedged daemon rather than hearing it is well.
struct WatchdogService: Service {
    let notifier: ServiceNotifier
    let interval: Duration
    let statistics: ServerStatistics
    let lockWatch: StateLockWatch
    let health: PersistenceHealth
    let logger: Logger

    /// The loop runs on a thread of its own: with the state's lock held, every thread of the
    /// cooperative pool may be waiting on it (summaries, pruning), and a task there would
    /// neither ping nor say why it stopped.
    func run() async throws {
        let stopped = Stopped()
        let (notifier, interval, statistics, lockWatch, health, logger) = (notifier, interval, statistics, lockWatch, health, logger)
        let (seconds, attoseconds) = interval.components
        let sleep = Double(seconds) + Double(attoseconds) / 1e18
        DetachedThread.start(named: "herald-watchdog") {
            var wasWedged = false
            while !stopped.value.load(ordering: .relaxed) {
                let held = lockWatch.heldFor
                if held > lockWatch.bound {
                    if !wasWedged {
                        logger.critical(
                            "the state's lock has been held for \(held.components.seconds) s, past \(lockWatch.bound.components.seconds) s: not pinging the watchdog, so that systemd restarts heraldd"
                        )
                    }
                    wasWedged = true
                    notifier.status("Wedged: the state's lock held for \(held.components.seconds) s")
                } else {
                    wasWedged = false
                    notifier.watchdog()
                    if let failure = health.failure {
                        notifier.status(failure.statusLine(health.policy))
                    } else {
                        notifier.status("Serving: \(statistics.openConnections) connections open")
                    }
                }
                DetachedThread.sleep(seconds: sleep)
            }
        }
        try? await gracefulShutdown()
        stopped.value.store(true, ordering: .relaxed)
    }

    final class Stopped: Sendable {
        let value = Atomic(false)
    }
}
