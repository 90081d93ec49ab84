import ArgumentParser
import Foundation

/// `heraldctl summary set HH:MM… --app APP` and `summary off` (`set-summary`, administrators).
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Set the scheduled summary, or deliver it now (administrators).",
        subcommands: [Set.self, Off.self, Deliver.self]
    )

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the schedule: its times and the apps it holds.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Summary times, HH:MM or HH:MM:SS in heraldd's local time.") var times: [String]
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

    struct Deliver: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the scheduled notifications now, as the next summary would (`deliver-summary`)."
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this uid's (default: every uid's).") var uid: UInt32?

        func run() throws {
            let params: [String: Any] = uid.map { ["uid": $0] } ?? [:]
            try client.run("deliver-summary", params: params) { result in
                let delivered = (result as? [String: Any])?["delivered"] as? Int ?? 0
                return [delivered == 1 ? "Delivered 1 scheduled notification." : "Delivered \(delivered) scheduled notifications."]
            }
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
