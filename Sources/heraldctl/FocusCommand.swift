import ArgumentParser
import Foundation

/// `heraldctl focus on NAME …` and `heraldctl focus off` (`set-focus`, administrators).
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Turn the host's Focus on or off (administrators).",
        subcommands: [On.self, Off.self]
    )

    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn a Focus on.")

        @OptionGroup var client: ClientOptions
        @Argument(help: "The Focus's name, such as Work.") var name: String
        @Option(help: "A person it lets through (repeat): \"Name <email>\", +phone or a handle.") var allow: [String] = []
        @Option(help: "An app it lets through (repeat).") var allowApp: [String] = []
        @Option(help: "When it ends: HH:MM (the next such local time) or an RFC 3339 date-time.") var until: String?
        @Flag(inversion: .prefixedNo, help: "Whether Time Sensitive notifications break through.") var timeSensitive = true
        @Flag(inversion: .prefixedNo, help: "Whether a second call within the window breaks through.") var repeatedCalls = true
        @Flag(help: "Let mentions and replies to the user through.") var allowMentions = false

        func validate() throws {
            if let until, UntilTime.date(until) == nil {
                throw ValidationError("--until takes HH:MM or an RFC 3339 date-time such as 2026-11-23T18:00:00Z, not \(until).")
            }
        }

        func run() throws {
            var focus: [String: Any] = [
                "name": name, "allowedPeople": allow.map(PersonArgument.parse), "allowedApps": allowApp,
                "allowTimeSensitive": timeSensitive, "allowRepeatedCalls": repeatedCalls, "allowMentions": allowMentions,
            ]
            if let until, let date = UntilTime.date(until) { focus["until"] = RFC3339Date.format(date) }
            try client.run("set-focus", params: ["focus": focus], human: FocusCommand.lines)
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn the Focus off.")
        @OptionGroup var client: ClientOptions

        func run() throws {
            try client.run("set-focus", params: ["focus": NSNull()], human: FocusCommand.lines)
        }
    }

    static func lines(_ result: Any) -> [String] {
        guard let focus = (result as? [String: Any])?["focus"] as? [String: Any] else { return ["Focus is off."] }
        var lines = ["Focus “\(Output.text(focus["name"]))” is on" + ((focus["until"] as? String).map { " until \($0)." } ?? ".")]
        let people = (focus["allowedPeople"] as? [Any] ?? []).map(PersonArgument.describe)
        let apps = (focus["allowedApps"] as? [String]) ?? []
        lines.append("  allows people: \(people.isEmpty ? "none" : people.joined(separator: ", "))")
        lines.append("  allows apps:   \(apps.isEmpty ? "none" : apps.joined(separator: ", "))")
        let breaks = [("allowTimeSensitive", "Time Sensitive"), ("allowRepeatedCalls", "repeated calls"), ("allowMentions", "mentions")]
            .filter { Output.bool(focus[$0.0]) }.map(\.1)
        lines.append("  lets through:  \(breaks.isEmpty ? "nothing else" : breaks.joined(separator: ", "))")
        return lines
    }
}

/// `--until`: `HH:MM` is the next such local time; anything else is RFC 3339.
enum UntilTime {
    static func date(_ text: String, now: Date = Date()) -> Date? {
        let parts = text.split(separator: ":")
        if parts.count == 2, text.count == 5, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
            (0..<60).contains(minute)
        {
            let calendar = Calendar.current
            return calendar.nextDate(
                after: now, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
        }
        return RFC3339Date.parse(text)
    }
}
