import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldClient
import HeraldProtocol
import HeraldSync

/// `herald-sync`: shares the person's Focus between their hosts through an MQTT broker.
@main
struct HeraldSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald-sync",
        abstract: "Share your Focus between your hosts through an MQTT broker.",
        discussion: """
            Watches your Focus and your Focus definitions on this host's heraldd and publishes \
            each change made here by hand, retained, on <topic-prefix>/<account>/focus and \
            <topic-prefix>/<account>/focuses/<name> at the broker; applies (set-focus, \
            define-focus, delete-focus) each newer change another host of yours published \
            there. Schedules travel with the definitions and run on each host's own clock. \
            Changes are ordered by a hybrid logical clock: the last writer wins everywhere. \
            Says online/offline (its last will) on <topic-prefix>/<account>/hosts/<host>, and \
            writes its status for heraldctl sync status to --status-file. With \
            home-assistant = yes, publishes Home Assistant's MQTT discovery of the Focus as a \
            select entity. Never a \
            notification travels. Settings are read from --config (docs/sync.md, \
            herald-sync(1)). Runs as the user service herald-sync.service.
            """,
        version: HeraldVersion.string
    )

    @Option(help: ArgumentHelp("The settings file (default: $XDG_CONFIG_HOME/herald/sync.conf).", valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("heraldd's socket (default: $HERALD_SOCKET, else the first that exists of heraldd's own defaults).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("Where to write the status heraldctl sync status reads (default: $XDG_RUNTIME_DIR/herald/sync-status.json).", valueName: "path"))
    var statusFile: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = config ?? SyncConfiguration.defaultPath(environment: environment)
        let settings: SyncConfiguration
        let heraldd: HeraldPollConnection
        let broker: Broker
        do {
            settings = try SyncConfiguration(path: path, defaultHostName: ProcessInfo.processInfo.hostName)
            heraldd = try HeraldPollConnection(HeraldClient.Configuration(socketPath: socket.flatMap { $0.isEmpty ? nil : $0 }))
            broker = try Broker(configuration: settings)
        } catch {
            SyncLog.info("\(error)")
            throw ExitCode(1)
        }
        let statusPath = statusFile ?? SyncStatus.defaultPath(environment: environment, uid: getuid())
        let status = SyncLoop(configuration: settings, heraldd: heraldd, broker: broker, statusPath: statusPath).run()
        if status != 0 { throw ExitCode(status) }
    }
}
