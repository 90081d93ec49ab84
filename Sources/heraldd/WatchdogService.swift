import HeraldServer
import HeraldSystemd
import ServiceLifecycle

/// Pings systemd's watchdog (`WatchdogSec=`) at half its interval and keeps `STATUS=` current.
struct WatchdogService: Service {
    let notifier: ServiceNotifier
    let interval: Duration
    let statistics: ServerStatistics

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            notifier.watchdog()
            notifier.status("Serving: \(statistics.openConnections) connections open")
            try? await Task.sleep(for: interval)
        }
    }
}
