import ArgumentParser
import FoundationEssentials
import HeraldProtocol
import HeraldSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `heraldctl sync status`: herald-sync's link to the broker, read from the status file it
/// keeps (``SyncStatus``); heraldd is not asked, as it knows nothing of the network.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "herald-sync, which shares your Focus between your hosts (docs/sync.md).",
        subcommands: [Status.self],
        defaultSubcommand: Status.self
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Whether herald-sync is connected, to which broker, when it last sent and received, what it last refused.",
            discussion: """
                Reads the status file herald-sync writes at each change ($XDG_RUNTIME_DIR/herald/sync-status.json, \
                or its --status-file); heraldd is not involved. Also lists your hosts as their retained online/offline \
                messages say. Exit status: 0 connected, 1 running but not connected, 69 herald-sync not running (or \
                never run). --json prints the file as it is, with running added.
                """
        )

        @Option(help: ArgumentHelp("herald-sync's status file (default: $XDG_RUNTIME_DIR/herald/sync-status.json).", valueName: "path"))
        var statusFile: String?

        @Flag(help: "Print the status as JSON, for scripts.")
        var json = false

        func run() throws {
            let path = statusFile ?? SyncStatus.defaultPath(environment: ProcessInfo.processInfo.environment, uid: getuid())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CtlFailure(.unavailable, ["heraldctl: herald-sync has not run: no status at \(path)"])
            }
            guard let status = SyncStatus.read(Array(data)) else {
                throw CtlFailure(.unavailable, ["heraldctl: \(path) is not herald-sync's status"])
            }
            // A process of that id that is not herald-sync's is taken for it: ids are reused
            // rarely enough within one session, and the file lives in a runtime folder.
            let running = kill(status.pid, 0) == 0 || errno == EPERM
            if json {
                var object = status.json.objectValue ?? [:]
                object["running"] = .bool(running)
                Output.printJSON(.object(object))
            } else {
                Output.print(Self.lines(status, running: running, now: Date()))
            }
            if !running { throw ExitCode(CtlStatus.unavailable.rawValue) }
            if status.link != .connected { throw ExitCode(1) }
        }

        static func lines(_ status: SyncStatus, running: Bool, now: Date) -> [String] {
            func ago(_ date: Date) -> String { "\(Duration.words(now.timeIntervalSince(date))) ago (\(RFC3339.format(date)))" }
            func event(_ event: SyncStatus.Event?) -> String {
                event.map { "\(ago($0.at)): \($0.detail) on \($0.topic)" } ?? "never"
            }
            var link: String
            switch status.link {
            case .connected: link = "connected to \(status.broker)"
            case .connecting: link = "connecting to \(status.broker)"
            case .refused: link = "refused by \(status.broker)"
            case .disconnected: link = "disconnected from \(status.broker)"
            case .failing: link = "cannot connect to \(status.broker)"
            }
            if let reason = status.linkReason { link += ": \(reason)" }
            var lines = [
                running
                    ? "herald-sync is running (pid \(status.pid)) as host \(status.host) of account \(status.account)"
                    : "herald-sync is not running; its last status (pid \(status.pid), host \(status.host) of account \(status.account)):",
                "  broker:        \(link), since \(ago(status.linkSince))",
                "  last sent:     \(event(status.lastSent))",
                "  last received: \(event(status.lastReceived))",
                "  last refused:  \(event(status.lastRefused))",
            ]
            let hosts = status.hosts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("  hosts:         \(hosts.isEmpty ? "none heard of" : hosts.joined(separator: ", "))")
            return lines
        }
    }
}
