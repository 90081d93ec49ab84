import HeraldServer
import HeraldStorage
import HeraldSystemd
import Logging
import ServiceLifecycle

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

    func run() async throws {
        var wasWedged = false
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
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
            try? await Task.sleep(for: interval)
        }
    }
}
