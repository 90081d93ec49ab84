import ArgumentParser
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldServer
import HeraldSystemd
import Logging
import ServiceLifecycle

/// The daemon's parts wired together: journal writer, state, server, watchdog.
struct Daemon {
    let listening: ListeningOptions
    let limits: LimitOptions
    let rules: RuleOptions
    let writer: JournalWriter
    let logger: Logger

    init(listening: ListeningOptions, limits: LimitOptions, rules: RuleOptions, logging: LoggingOptions) throws {
        self.listening = listening
        self.limits = limits
        self.rules = rules
        let writer = JournalWriter(target: logging.target ?? .console)
        self.writer = writer
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, writer: writer) }
        self.logger = Logger(label: "heraldd")
    }

    func run() async throws {
        let notifier = ServiceNotifier()
        let server = try makeServer(notifier: notifier)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup)
        ]
        if let interval = ServiceNotifier.watchdogInterval() {
            services.append(
                .init(
                    service: WatchdogService(notifier: notifier, interval: interval / 2, statistics: server.statistics),
                    successTerminationBehavior: .ignore
                )
            )
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        do {
            try await group.run()
        } catch let error as ListeningError {
            logger.critical("\(error.description)")
            writer.flush(timeout: .seconds(2))
            FileHandle.standardError.write(Data("heraldd: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        logger.info("stopped")
        writer.flush(timeout: .seconds(5))
        writer.shutdown()
    }

    private func makeServer(notifier: ServiceNotifier) throws -> HeraldServer {
        let place: ServerConfiguration.Listening
        if let activated = SocketActivation.chooseHeraldSocket(SocketActivation.listenedSockets()) {
            place = .activated(fileDescriptor: activated.fd)
        } else {
            place = .path(listening.socket ?? SocketPath.defaultPath(), mode: listening.parsedSocketMode ?? 0o660)
        }
        var core = CoreConfiguration()
        core.focusAuthorizationPolicy = rules.policy ?? .prompt
        core.repeatedCallWindow = rules.repeatedCallWindow
        let statistics = ServerStatistics()
        let writer = self.writer
        let environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: core)),
            clock: SystemClock(),
            statistics: statistics,
            openRPCDocument: OpenRPCDocument.value,
            statsContributions: {
                let counters = writer.counters
                return [
                    "journal": .object([
                        "written": .number(JSONNumber(Int(counters.written))),
                        "dropped": .number(JSONNumber(Int(counters.dropped))),
                    ])
                ]
            }
        )
        let configuration = ServerConfiguration(
            listening: place,
            limits: limits.requestLimits,
            administratorPolicy: AdministratorPolicy(adminGID: listening.adminGroup.flatMap(AdministratorPolicy.groupID)),
            exitIdleAfter: listening.exitIdleAfter
        )
        return HeraldServer(
            configuration: configuration,
            environment: environment,
            recorder: JournalResultRecorder(writer: writer),
            logger: logger,
            onReady: { place in
                writer.submit(Self.lifecycleEntry("heraldd started: serving on \(place)", id: JournalMessageID.daemonStarted))
                notifier.ready()
                notifier.status("Serving on \(place)")
                // The console line a person running heraldd in a terminal looks for.
                FileHandle.standardError.write(Data("heraldd: serving on \(place)\n".utf8))
            },
            onStopping: {
                writer.submit(Self.lifecycleEntry("heraldd stopping", id: JournalMessageID.daemonStopping))
                notifier.stopping()
                notifier.status("Stopping: finishing in-flight requests")
            }
        )
    }

    /// The entries that mark the daemon's start and stop in the journal, with their catalog ids.
    private static func lifecycleEntry(_ message: String, id: String) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.notice.rawValue))
        try? entry.append(name: "MESSAGE", value: message)
        try? entry.append(name: "MESSAGE_ID", value: id)
        return entry
    }
}
