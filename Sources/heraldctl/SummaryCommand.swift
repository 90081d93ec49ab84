import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl summary set HH:MM… --app APP`, `summary off`, `summary show` (`set-summary`,
/// `get-summary`: the caller's own; an administrator may name another `--uid`) and
/// `summary deliver` (`deliver-summary`: your own; an administrator's, every uid's or `--uid`'s).
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Your scheduled summary: set it, show it, turn it off; deliver it now.",
        subcommands: [Set.self, Off.self, Show.self, Deliver.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the schedule and its next delivery.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: FocusCommand.Owner

        func run() throws {
            try client.run("get-summary", params: owner.adding(to: [:]), human: SummaryCommand.lines)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the schedule: its times and the apps it holds.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Summary times, HH:MM or HH:MM:SS in heraldd's local time.") var times: [String]
        @Option(help: "An app the summary holds (repeat).") var app: [String] = []
        @OptionGroup var owner: FocusCommand.Owner

        func run() throws {
            let flags = ["/apps": "--app", "/times": "TIME", "/uid": "--uid"]
            try client.run("set-summary", params: owner.adding(to: ["apps": app.json, "times": times.json]), flags: flags, human: SummaryCommand.lines)
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the summary off.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: FocusCommand.Owner

        func run() throws {
            try client.run("set-summary", params: owner.adding(to: ["apps": [], "times": []]), human: SummaryCommand.lines)
        }
    }

    struct Deliver: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the scheduled notifications now, as the next summary would (`deliver-summary`)."
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "Administrators: only this uid's (default: yours; an administrator's, every uid's).") var uid: UInt32?

        func run() throws {
            let params: [String: JSONValue] = uid.map { ["uid": $0.json] } ?? [:]
            try client.run("deliver-summary", params: params) { result in
                let delivered = result["delivered"]?.intValue ?? 0
                return [delivered == 1 ? "Delivered 1 scheduled notification." : "Delivered \(delivered) scheduled notifications."]
            }
        }
    }

    static func lines(_ result: JSONValue) -> [String] {
        let times = result["times"]?.strings ?? []
        let apps = result["apps"]?.strings ?? []
        guard !times.isEmpty else { return ["The scheduled summary is off."] }
        return [
            "Summary at \(times.joined(separator: ", ")) for \(apps.isEmpty ? "no app" : apps.joined(separator: ", "))",
            "  next: \(Output.text(result["nextDelivery"]))",
        ]
    }
}
