import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl status`: is heraldd reachable, and its state at a glance, from `stats`: the
/// whole daemon for an administrator, the person's own figures for anyone else.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Whether heraldd is reachable, its version and uptime, and its state at a glance.",
        discussion: """
            An administrator (root, heraldd's own uid, a member of its --admin-group) sees the whole daemon: \
            connections, interactions, notifications, snapshot and journal. Anyone else sees their own view, \
            and is told so at the top: their connections, interactions, notifications, responses waiting, the \
            Focus on and the presenters of their notifications — never another uid's. --json prints stats as \
            heraldd answers it (its view member says which).
            """
    )

    @OptionGroup var client: ClientOptions

    func run() throws {
        let connection = try client.connect()
        let stats = try connection.call("stats")
        if client.json {
            Output.printJSON(stats)
            return
        }
        let discover = try? connection.call("rpc.discover")
        // info.version is the protocol's; the daemon's own is beside it.
        let version = discover["info"]["x-herald-daemon-version"]?.stringValue
        if stats["view"]?.stringValue == "person" {
            Output.print(Self.personLines(stats: stats, socket: client.socketPath, version: version))
        } else {
            Output.print(Self.lines(stats: stats, socket: client.socketPath, version: version))
        }
    }

    /// A person's own view: what is theirs, and that an administrator sees the rest.
    static func personLines(stats: JSONValue, socket: String, version: String?) -> [String] {
        let uptime = stats["uptimeSeconds"]?.doubleValue ?? 0
        var focus = "none on"
        if let name = stats["focus"]["name"]?.stringValue {
            focus = "\(name) (\(stats["focus"]["reason"]?.stringValue ?? "on")"
            if let endsAt = stats["focus"]["endsAt"]?.stringValue { focus += ", until \(endsAt)" }
            focus += ")"
        }
        return [
            "heraldd \(version ?? "?") is running on \(socket)",
            "  your view (uid \(Output.text(stats["uid"]))): only your own figures; an administrator sees the whole daemon",
            "  up:            \(Duration.words(uptime)) (since \(Output.text(stats["startedAt"])))",
            "  connections:   \(Output.text(stats["connections"]["open"])) of yours open",
            "  interactions:  \(Output.text(stats["interactions"])) from \(Output.text(stats["apps"])) apps",
            "  notifications: \(Output.text(stats["notifications"])) kept, \(Output.text(stats["deliveredNotifications"])) of them delivered",
            "  responses:     \(Output.text(stats["pendingResponses"])) waiting for their apps",
            "  Focus:         \(focus)",
            "  presenters:    \(Output.text(stats["presenters"])) presenting your notifications",
            "  subscribers:   \(Output.text(stats["focusSubscriptions"])) Focus subscriptions of your apps",
        ]
    }

    static func lines(stats: JSONValue, socket: String, version: String?, now: Date = Date()) -> [String] {
        let connections = stats["connections"]
        let journal = stats["journal"]
        let uptime = stats["uptimeSeconds"]?.doubleValue ?? 0
        var lines = [
            "heraldd \(version ?? "?") is running on \(socket)",
            "  up:           \(Duration.words(uptime)) (since \(Output.text(stats["startedAt"])))",
            "  connections:  \(Output.text(connections["open"])) open, \(Output.text(connections["accepted"])) accepted, \(Output.text(connections["refused"])) refused",
            "  interactions: \(Output.text(stats["interactions"]))",
            "  notifications: \(Output.text(stats["notifications"])) kept, delivered and scheduled",
            "  subscribers:  \(Output.text(stats["focusSubscriptions"])) Focus subscriptions",
        ]
        if let snapshot = stats["snapshot"], snapshot.objectValue != nil {
            let generation = Output.text(snapshot["generation"])
            var line = "  snapshot:     generation \(generation)"
            if let lastAt = snapshot["lastAt"]?.stringValue, let date = RFC3339.parse(lastAt) {
                line += ", written \(Duration.words(now.timeIntervalSince(date))) ago"
            } else {
                line += ", none written since start"
            }
            if let failures = snapshot["failures"]?.intValue, failures > 0 { line += ", \(failures) failed writes" }
            lines.append(line)
            if let path = snapshot["path"]?.stringValue { lines.append("                \(path)") }
            lines += Self.writeFailureLines(snapshot)
        }
        lines.append("  journal:      \(Output.text(journal["written"])) written, \(Output.text(journal["dropped"])) dropped")
        if let retention = stats["retention"], retention.objectValue != nil {
            lines.append("  retention:    \(Output.text(retention["evicted"])) evicted, \(Output.text(retention["expired"])) expired")
        }
        return lines
    }
}

extension StatusCommand {
    /// The state not written now, and what the previous heraldd's failed final snapshot lost.
    static func writeFailureLines(_ snapshot: JSONValue) -> [String] {
        var lines: [String] = []
        if let since = snapshot["notWrittenSince"]?.stringValue {
            let refusing = snapshot["refusingChanges"] == .bool(true)
            lines.append("  STATE NOT WRITTEN since \(since): \(Output.text(snapshot["cause"]))")
            lines.append(
                refusing
                    ? "                changes are refused (error 1011) until a snapshot succeeds; reads are answered"
                    : "                changes are accepted (--on-write-failure accept): a crash or a stop now loses them")
        }
        if let previous = snapshot["previousStop"], previous.objectValue != nil {
            lines.append(
                "  previous stop: pid \(Output.text(previous["pid"])) stopped at \(Output.text(previous["failedAt"])) without its final snapshot (\(Output.text(previous["cause"])))"
            )
            lines.append(
                "                the \(Output.text(previous["unwrittenChanges"])) changes it acknowledged after \(Output.text(previous["writtenAt"])) are lost; generation \(Output.text(previous["generation"])) was restored"
            )
        }
        return lines
    }
}

/// Durations and dates as a person reads them.
enum Duration {
    static func words(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds))
        switch whole {
        case ..<60: return max(0, seconds).printed("%.1f") + " s"
        case ..<3600: return "\(whole / 60) min \(whole % 60) s"
        case ..<86400: return "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}
