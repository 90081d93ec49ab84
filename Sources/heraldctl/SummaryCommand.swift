import ArgumentParser
import Foundation

/// `heraldctl summary set HH:MM… --app APP` and `summary off` (`set-summary`, administrators).
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Set the scheduled summary (administrators).",
        subcommands: [Set.self, Off.self]
    )

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the schedule: its times and the apps it holds.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Summary times, HH:MM in heraldd's local time.") var times: [String]
        @Option(help: "An app the summary holds (repeat).") var app: [String] = []

        func run() throws {
            try client.run("set-summary", params: ["apps": app, "times": times], human: SummaryCommand.lines)
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the summary off.")
        @OptionGroup var client: ClientOptions

        func run() throws {
            try client.run("set-summary", params: ["apps": [String](), "times": [String]()], human: SummaryCommand.lines)
        }
    }

    static func lines(_ result: Any) -> [String] {
        let result = result as? [String: Any] ?? [:]
        let times = result["times"] as? [String] ?? []
        let apps = result["apps"] as? [String] ?? []
        guard !times.isEmpty else { return ["The scheduled summary is off."] }
        return [
            "Summary at \(times.joined(separator: ", ")) for \(apps.isEmpty ? "no app" : apps.joined(separator: ", "))",
            "  next: \(Output.text(result["nextDelivery"]))",
        ]
    }
}
