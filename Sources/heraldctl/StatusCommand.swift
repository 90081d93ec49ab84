import ArgumentParser
import Foundation
import HeraldProtocol

/// `heraldctl status`: is heraldd reachable, and its state at a glance, from `stats`.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Whether heraldd is reachable, its version, uptime, connections, interactions, notifications, snapshot and journal."
    )

    @OptionGroup var client: ClientOptions

    func run() throws {
        let connection = try client.connect()
        let answer = Result { () throws(CtlFailure) in try connection.call("stats") }
        if case .failure(let failure) = answer, failure.isPermissionDenied {
            // Reachable, but stats is for administrators: say both, plainly.
            throw CtlFailure(.failed, [
                "heraldd is running on \(connection.path), but status reads stats, which is for administrators:",
                "  uid 0, heraldd's own uid, or members of its --admin-group. Run it as one of them (sudo heraldctl status).",
            ] + failure.lines.dropLast())
        }
        let stats = try answer.get()
        if client.json {
            Output.printJSON(stats)
            return
        }
        let discover = try? connection.call("rpc.discover")
        let version = discover["info"]["version"]?.stringValue
        Output.print(Self.lines(stats: stats, socket: connection.path, version: version))
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
            if let lastAt = snapshot["lastAt"]?.stringValue, let date = RFC3339Date.parse(lastAt) {
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
        case ..<60: return String(format: "%.1f s", max(0, seconds))
        case ..<3600: return "\(whole / 60) min \(whole % 60) s"
        case ..<86400: return "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}

enum RFC3339Date {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
