import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldClient
import HeraldProtocol

/// `herald-sync`: shares the person's Focus between their hosts through an MQTT broker.
@main
struct HeraldSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald-sync",
        abstract: "Share your Focus between your hosts through an MQTT broker.",
        discussion: """
            Watches your Focus on this host's heraldd and publishes each change, retained, on \
            <topic-prefix>/<account>/focus at the broker; applies with set-focus each newer \
            change another host of yours published there. Changes are ordered by a hybrid \
            logical clock: the last writer wins everywhere. Only the Focus's name, its end, \
            its cause, the host and the time travel; never a notification. Settings are read \
            from --config (docs/sync.md, herald-sync(1)). Runs as the user service \
            herald-sync.service.
            """,
        version: HeraldVersion.string
    )

    @Option(help: ArgumentHelp("The settings file (default: $XDG_CONFIG_HOME/herald/sync.conf).", valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("heraldd's socket (default: $HERALD_SOCKET, else the first that exists of heraldd's own defaults).", valueName: "path"))
    var socket: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = config ?? SyncConfiguration.defaultPath(environment: environment)
        let settings: SyncConfiguration
        let link: DaemonLink
        let broker: Broker
        do {
            settings = try SyncConfiguration(path: path, defaultHostName: ProcessInfo.processInfo.hostName)
            link = try DaemonLink(path: DaemonSocket.path(flag: socket, environment: environment))
            broker = try Broker(configuration: settings)
        } catch {
            SyncLog.info("\(error)")
            throw ExitCode(1)
        }
        let status = SyncLoop(configuration: settings, link: link, broker: broker).run()
        if status != 0 { throw ExitCode(status) }
    }
}
