import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// `heraldctl focus on|off|show|define|delete|missed|hold` (`set-focus`, `get-focus`, `define-focus`,
/// `delete-focus`, `get-focus-digest`, `hold-focus`): the caller's own Focuses; an administrator may name another `--uid`.
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Your Focuses: turn one on or off, show them, define one with a schedule.",
        subcommands: [On.self, Off.self, Show.self, Define.self, Delete.self, Missed.self, Hold.self],
        defaultSubcommand: Show.self
    )

    /// What a Focus lets through, as `on` and `define` take it: only what is given is sent,
    /// so `on` changes those settings of a Focus defined already and keeps the rest.
    struct Definition: ParsableArguments {
        @Option(help: "A person it lets through (repeat; replaces the list): \"Name <email>\", +phone, a handle, or the name of someone you messaged or called.") var allow: [String] = []
        @Flag(help: "Let no person through (empties the list).") var allowNobody = false
        @Option(help: "An app it lets through (repeat; replaces the list).") var allowApp: [String] = []
        @Flag(help: "Let no app through (empties the list).") var allowNoApps = false
        @Option(help: "A person it silences, letting everyone else through (repeat; replaces the list; needs no --allow); written as for --allow.") var silence: [String] = []
        @Option(help: "An app it silences, letting every other app through (repeat; replaces the list; needs no --allow-app).") var silenceApp: [String] = []
        @Flag(help: "Silence no one by name again: the Focus allows only whom --allow and --allow-app name.") var silenceNobody = false
        @Flag(inversion: .prefixedNo, help: "Whether Time Sensitive notifications break through (new Focus: yes).") var timeSensitive: Bool?
        @Flag(inversion: .prefixedNo, help: "Whether a second call within the window breaks through (new Focus: yes).") var repeatedCalls: Bool?
        @Flag(name: .customLong("allow-mentions"), inversion: .prefixedNo, help: "Whether mentions and replies to the user break through (new Focus: no).")
        var mentions: Bool?

        func validate() throws {
            if allowNobody, !allow.isEmpty { throw ValidationError("Give --allow or --allow-nobody, not both.") }
            if allowNoApps, !allowApp.isEmpty { throw ValidationError("Give --allow-app or --allow-no-apps, not both.") }
            if silenceNobody, !silence.isEmpty || !silenceApp.isEmpty {
                throw ValidationError("Give --silence/--silence-app or --silence-nobody, not both.")
            }
        }

        /// The Focus as `set-focus` and `define-focus` take it: the settings given, no others;
        /// the people named by name turned into handles by `people`.
        func focus(named name: String, people: PersonResolver) throws(CtlFailure) -> [String: JSONValue] {
            var focus: [String: JSONValue] = ["name": name.json]
            var allowed: [JSONValue] = []
            for text in allow { allowed.append(try people.person(text, flag: "--allow")) }
            var silenced: [JSONValue] = []
            for text in silence { silenced.append(try people.person(text, flag: "--silence")) }
            if !allow.isEmpty || allowNobody { focus["allowedPeople"] = .array(allowed) }
            if !allowApp.isEmpty || allowNoApps { focus["allowedApps"] = allowApp.json }
            if !silence.isEmpty || !silenceApp.isEmpty || silenceNobody {
                // A Focus either allows or silences: naming whom to silence empties what it allows.
                focus["silencedPeople"] = .array(silenced)
                focus["silencedApps"] = silenceApp.json
                if !silenceNobody {
                    focus["allowedPeople"] = .array([])
                    focus["allowedApps"] = [String]().json
                }
            }
            if let timeSensitive { focus["allowTimeSensitive"] = timeSensitive.json }
            if let repeatedCalls { focus["allowRepeatedCalls"] = repeatedCalls.json }
            if let mentions { focus["allowMentions"] = mentions.json }
            return focus
        }
    }

    /// `--uid`, for administrators.
    struct Owner: ParsableArguments {
        @Option(help: "Administrators: another uid's (default: your own).") var uid: UInt32?

        func adding(to params: [String: JSONValue]) -> [String: JSONValue] {
            var params = params
            if let uid { params["uid"] = uid.json }
            return params
        }
    }

    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn a Focus on by hand.",
            discussion: """
                Turns on NAME as defined, changing only the settings given (--allow, --allow-app, a switch) and keeping \
                the rest and its schedules; a Focus not defined yet is defined with the defaults for what is not given. \
                --allow and --allow-app replace their list; --allow-nobody and --allow-no-apps empty it. \
                --silence and --silence-app make the Focus silence only whom they name and let the rest through. \
                A person is "Name <handle>", an email address, a +phone number or a handle; a name alone \
                ("Ann Lee", or "Ann") is looked up among the people you messaged or called (suggest-people), \
                and heraldctl says whom it chose, or lists them when the name fits several.
                """
        )

        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: Owner
        @Argument(help: "The Focus's name, such as Work.") var name: String
        @OptionGroup var definition: Definition
        @Option(help: "When it ends: HH:MM (the next such local time) or an RFC 3339 date-time.") var until: String?

        func validate() throws {
            if let until, UntilTime.date(until) == nil {
                throw ValidationError("--until takes HH:MM or an RFC 3339 date-time such as 2026-11-23T18:00:00Z, not \(until).")
            }
        }

        func run() throws {
            let people = PersonResolver(client: client, uid: owner.uid)
            var focus = try definition.focus(named: name, people: people)
            if let untilText = until.flatMap({ UntilTime.date($0) }).map(RFC3339.format) { focus["until"] = untilText.json }
            people.sayChoices()
            try client.run("set-focus", params: owner.adding(to: ["focus": focus.json]), flags: FocusCommand.flags, human: FocusCommand.lines)
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the Focus off by hand (a scheduled one stays off until its window ends).")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: Owner

        func run() throws {
            try client.run("set-focus", params: owner.adding(to: ["focus": JSONValue.null.json]), human: FocusCommand.lines)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show which Focus is on and why (and at which of your hosts it was chosen), and every Focus defined.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: Owner

        func run() throws {
            try FocusCommand.readBack("get-focus", params: owner.adding(to: [:]), client: client, owner: owner)
        }
    }

    struct Define: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Define (or replace) a Focus without turning it on, optionally with schedules.",
            discussion: """
                heraldctl focus define Sleep --days mon-fri --from 22:00 --to 07:00 (an end before the start ends the next day); \
                for more than one schedule, repeat --schedule: \
                heraldctl focus define Sleep --schedule "mon-fri 22:00-07:00" --schedule "sat,sun 23:30-09:00".
                """
        )
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: Owner
        @Argument(help: "The Focus's name, such as Sleep.") var name: String
        @OptionGroup var definition: Definition
        @Option(help: "The days its schedule starts on: mon-fri, sat,sun, daily (default: daily).") var days: String?
        @Option(help: "The schedule's start, HH:MM or HH:MM:SS local time.") var from: String?
        @Option(help: "The schedule's end, HH:MM or HH:MM:SS local time.") var to: String?
        @Option(
            name: .customLong("schedule"),
            help: ArgumentHelp("A schedule, as \"[DAYS] FROM-TO\" (\"mon-fri 22:00-07:00\", \"12:00-13:00\" daily); repeat it for more.", valueName: "schedule")
        )
        var schedules: [ScheduleArgument] = []

        func validate() throws {
            guard (from == nil) == (to == nil) else { throw ValidationError("A schedule needs both --from and --to.") }
            if days != nil, from == nil { throw ValidationError("--days belongs to a schedule: give --from and --to too.") }
            if let days, DayList.parse(days) == nil {
                throw ValidationError("--days takes days mon … sun, ranges and commas (mon-fri, sat,sun) or daily; not \(days).")
            }
        }

        func run() throws {
            let people = PersonResolver(client: client, uid: owner.uid)
            var focus = try definition.focus(named: name, people: people)
            people.sayChoices()
            var all = schedules
            if let from, let to {
                all.insert(ScheduleArgument(days: days.flatMap(DayList.parse) ?? DayList.names, start: from, end: to), at: 0)
            }
            focus["schedules"] = all.map(\.wire).json
            try FocusCommand.readBack("define-focus", params: owner.adding(to: ["focus": focus.json]), client: client, owner: owner)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a Focus (if it is on, it goes off).")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: Owner
        @Argument(help: "The Focus's name.") var name: String

        func run() throws {
            try FocusCommand.readBack("delete-focus", params: owner.adding(to: ["name": name.json]), client: client, owner: owner)
        }
    }

    /// The flag that gives each member of `set-focus` and `define-focus`, for heraldd's errors.
    static let flags = [
        "/focus/name": "NAME", "/focus/allowedPeople": "--allow", "/focus/allowedApps": "--allow-app", "/focus/silencedPeople": "--silence",
        "/focus/silencedApps": "--silence-app", "/focus/until": "--until", "/focus/schedules": "--schedule/--from/--to/--days",
        "/name": "NAME", "/uid": "--uid",
    ]

    static func lines(_ result: JSONValue) -> [String] {
        guard let focus = result["focus"], focus.objectValue != nil else { return ["Focus is off."] }
        return ["Focus “\(Output.text(focus["name"]))” is on" + ((focus["until"]?.stringValue).map { " until \($0)." } ?? ".")]
            + definitionLines(focus)
    }

    /// What a Focus lets through, and its schedules.
    static func definitionLines(_ focus: JSONValue) -> [String] {
        var lines: [String] = []
        if focus["silencedPeople"] != nil || focus["silencedApps"] != nil {
            let people = (focus["silencedPeople"]?.arrayValue ?? []).map(PersonArgument.describe)
            let apps = (focus["silencedApps"]?.strings) ?? []
            lines.append("  silences people: \(people.isEmpty ? "none" : people.joined(separator: ", ")); everyone else comes through")
            lines.append("  silences apps:   \(apps.isEmpty ? "none" : apps.joined(separator: ", ")); every other app comes through")
        } else {
            let people = (focus["allowedPeople"]?.arrayValue ?? []).map(PersonArgument.describe)
            let apps = (focus["allowedApps"]?.strings) ?? []
            lines.append("  allows people: \(people.isEmpty ? "none" : people.joined(separator: ", "))")
            lines.append("  allows apps:   \(apps.isEmpty ? "none" : apps.joined(separator: ", "))")
        }
        let breaks = [("allowTimeSensitive", "Time Sensitive"), ("allowRepeatedCalls", "repeated calls"), ("allowMentions", "mentions")]
            .filter { Output.bool(focus[$0.0]) }.map(\.1)
        lines.append("  lets through:  \(breaks.isEmpty ? "nothing else" : breaks.joined(separator: ", "))")
        for schedule in focus["schedules"]?.arrayValue ?? [] {
            let days = (schedule["days"]?.strings)?.joined(separator: ",") ?? "daily"
            lines.append("  scheduled:     \(days) \(Output.text(schedule["start"]))–\(Output.text(schedule["end"]))")
        }
        return lines
    }

    /// Calls `method`, which answers the uid's Focuses a page at a time (each within
    /// heraldd's `--max-response-bytes`), follows the pages with `get-focus`, and prints
    /// them as one answer.
    static func readBack(_ method: String, params: [String: JSONValue], client: ClientOptions, owner: Owner) throws(CtlFailure) {
        let connection = try client.connect()
        var result: JSONObject
        do {
            result = try connection.call(method, params: params).objectValue ?? JSONObject()
        } catch {
            throw error.naming(flags)
        }
        var focuses = result["focuses"]?.arrayValue ?? []
        while let cursor = result["nextCursor"]?.stringValue {
            let page = try connection.call("get-focus", params: owner.adding(to: ["cursor": cursor.json]))
            focuses += page["focuses"]?.arrayValue ?? []
            result["nextCursor"] = page["nextCursor"]
        }
        result["focuses"] = .array(focuses)
        if client.json { Output.printJSON(.object(result)) } else { Output.print(readBackLines(.object(result))) }
    }

    /// `get-focus`'s answer: the Focus on and why, the next change, each definition.
    static func readBackLines(_ result: JSONValue) -> [String] {
        var lines: [String]
        if let active = result["active"], active.objectValue != nil {
            let name = Output.text(active["name"])
            let ends = (active["endsAt"]?.stringValue).map { " until \($0)" } ?? ""
            switch active["reason"]?.stringValue {
            case "schedule": lines = ["Focus “\(name)” is on by its schedule\(ends)."]
            case "until": lines = ["Focus “\(name)” is on, turned on by hand\(ends)."]
            case "held": lines = ["Focus “\(name)” is on, held while a command runs."]
            default: lines = ["Focus “\(name)” is on, turned on by hand" + ((active["endsAt"]?.stringValue).map { ", until the schedules' next change at \($0)." } ?? ".")]
            }
        } else {
            lines = ["No Focus is on."]
        }
        if let override = result["override"], override.objectValue != nil {
            let by = result["active"] == nil || result["active"] == .null ? "Turned off by hand" : "Turned on by hand"
            let until = (override["endsAt"]?.stringValue).map { " until \($0)" } ?? " until changed by hand"
            lines.append("\(by) over the schedule of “\(Output.text(override["scheduledFocus"]))”\(until).")
        }
        if let origin = result["origin"], let host = origin["host"]?.stringValue {
            let on = result["active"]?.objectValue != nil
            let why =
                switch origin["reason"]?.stringValue {
                case "held": " (held while a command ran there)"
                case "until": " (by hand, with an end)"
                case nil: ""
                default: " (by hand)"
                }
            lines.append("\(on ? "Turned on" : "Turned off") at host “\(host)”\(why), and carried here by herald-sync.")
        }
        if let next = result["nextChange"]?.stringValue { lines.append("Next change: \(next)") }
        for hold in result["holds"]?.arrayValue ?? [] {
            let holder = "pid \(Output.text(hold["pid"]))" + ((hold["command"]?.stringValue).map { " (\($0))" } ?? "")
            let why = (hold["reason"]?.stringValue).map { ", \($0)" } ?? ""
            let overridden = Output.bool(hold["overridden"]) ? "; overridden by hand" : ""
            lines.append("Held: “\(Output.text(hold["name"]))” by \(holder) since \(Output.text(hold["since"]))\(why)\(overridden)")
        }
        let focuses = result["focuses"]?.arrayValue ?? []
        lines.append(focuses.isEmpty ? "No Focus is defined." : "Defined:")
        for focus in focuses {
            lines.append("“\(Output.text(focus["name"]))”")
            lines += definitionLines(focus)
        }
        return lines
    }
}

/// `--days`: `mon-fri`, `sat,sun`, `mon,wed-fri`, `daily`; the wire's day names in week order.
enum DayList {
    static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    static func parse(_ text: String) -> [String]? {
        if text == "daily" { return names }
        var days = Set<Int>()
        for part in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { names.firstIndex(of: String($0)) }
            guard !ends.isEmpty, ends.count <= 2, let first = ends.first!, let last = ends.last! else { return nil }
            // A range may wrap past Sunday: fri-mon.
            var day = first
            while true {
                days.insert(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return names.indices.filter(days.contains).map { names[$0] }
    }
}

/// `--schedule`: `[DAYS] FROM-TO`, such as `mon-fri 22:00-07:00` or `12:00-13:00` (daily);
/// the times are checked by heraldd, which names the one at fault.
struct ScheduleArgument: ExpressibleByArgument {
    var days: [String]
    var start: String
    var end: String

    init(days: [String], start: String, end: String) {
        self.days = days
        self.start = start
        self.end = end
    }

    init?(argument: String) {
        let words = argument.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 1 || words.count == 2 else { return nil }
        let times = words.last!.split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, !times[0].isEmpty, !times[1].isEmpty else { return nil }
        guard let days = words.count == 2 ? DayList.parse(String(words[0])) : DayList.names else { return nil }
        self.init(days: days, start: String(times[0]), end: String(times[1]))
    }

    /// A schedule of `define-focus`: every day unless `days` leaves some out.
    var wire: [String: JSONValue] {
        var schedule: [String: JSONValue] = ["start": start.json, "end": end.json]
        if days.count < 7 { schedule["days"] = days.json }
        return schedule
    }
}

/// `--until`: `HH:MM` is the next such local time; anything else is RFC 3339.
enum UntilTime {
    static func date(_ text: String, now: Date = Date()) -> Date? {
        let parts = text.split(separator: ":")
        if parts.count == 2, text.count == 5, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
            (0..<60).contains(minute)
        {
            // As the summary's times: the first such instant after now in the local zone,
            // the end of the gap when a daylight-saving change skips it.
            let zone = ZoneRules.current
            let today = LocalTime.day(of: now, in: zone)
            for day in today...(today + 2) {
                if let next = LocalTime.instants(day: day, seconds: hour * 3600 + minute * 60, in: zone).first(where: { $0 > now }) {
                    return next
                }
            }
            return nil
        }
        return RFC3339.parse(text)
    }
}
