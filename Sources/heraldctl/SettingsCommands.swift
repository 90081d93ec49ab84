import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl suggest` (`suggest-people`): the caller's own uid's; an administrator's every uid's.
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "People ranked by your outgoing donations (an administrator's: every uid's, or --uid's)."
    )

    @OptionGroup var client: ClientOptions
    @Option(help: "How many, 1 to 1000.") var limit: Int?
    @Option(help: "Only this uid's donations (administrators; others see only their own).") var uid: UInt32?
    @Option(help: "Only this app's donations.") var app: String?

    func run() throws {
        var params: [String: JSONValue] = [:]
        if let limit { params["limit"] = limit.json }
        if let uid { params["uid"] = uid.json }
        if let app { params["app"] = app.json }
        try client.run("suggest-people", params: params) { result in
            let people = result["people"]?.arrayValue ?? []
            guard !people.isEmpty else { return ["No suggestions: nobody was messaged or called yet."] }
            return people.enumerated().map { index, entry in
                "\(index + 1). \(PersonArgument.describe(entry["person"])) — score \(Self.score(entry["score"])), "
                    + "\(Output.text(entry["messageCount"])) messages, \(Output.text(entry["callCount"])) calls, last \(Output.text(entry["lastDate"]))"
            }
        }
    }

    /// A score as a person reads it: three significant digits ("1", "0.667"), since it
    /// decays with every second since the last donation.
    static func score(_ value: JSONValue?) -> String {
        guard let number = value?.doubleValue else { return Output.text(value) }
        return number.printed("%.3g")
    }
}

/// `heraldctl delete --app APP (ID…|--group G|--all)` (`delete-interactions`).
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Forget this app's interactions: by identifier, by group, or all."
    )

    @OptionGroup var client: ClientOptions
    @Option(help: "The app.") var app: String
    @Argument(help: "Interaction identifiers.") var identifiers: [String] = []
    @Option(help: "Every interaction of this group identifier.") var group: String?
    @Flag(help: "Every interaction of the app.") var all = false

    func validate() throws {
        let selectors = (identifiers.isEmpty ? 0 : 1) + (group == nil ? 0 : 1) + (all ? 1 : 0)
        guard selectors == 1 else { throw ValidationError("Give exactly one of: identifiers, --group, --all.") }
    }

    func run() throws {
        var params: [String: JSONValue] = ["app": app.json]
        if !identifiers.isEmpty { params["identifiers"] = identifiers.json }
        if let group { params["groupIdentifier"] = group.json }
        if all { params["all"] = true }
        try client.run("delete-interactions", params: params) { result in
            ["deleted \(Output.text(result["deleted"])) interactions"]
        }
    }
}

/// `heraldctl request-focus --app APP` (`request-focus`).
struct RequestFocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request-focus",
        abstract: "An app's Focus authorization and, when authorized, whether a Focus silences it."
    )

    @OptionGroup var client: ClientOptions
    @Option(help: "The app.") var app: String
    @Flag(help: "Ask for authorization (heraldd's --focus-authorization decides).") var requestAuthorization = false

    func run() throws {
        var params: [String: JSONValue] = ["app": app.json]
        if requestAuthorization { params["requestAuthorization"] = true }
        try client.run("request-focus", params: params) { result in
            return ["\(app): authorization \(Output.text(result["authorizationStatus"])), \(FocusStatusText.words(result["focusStatus"]))"]
        }
    }
}

/// A `focusStatus` in words.
enum FocusStatusText {
    static func words(_ status: JSONValue?) -> String {
        guard let status, status.objectValue != nil else { return "Focus status not shared (not authorized)" }
        return Output.bool(status["isFocused"]) ? "focused (a Focus silences it)" : "not focused"
    }
}

/// `heraldctl snapshot` (administrators).
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write a snapshot of heraldd's state now (administrators)."
    )

    @OptionGroup var client: ClientOptions

    func run() throws {
        try client.run("snapshot") { result in
            return [
                "snapshot generation \(Output.text(result["generation"])): \(Output.text(result["interactions"])) interactions, "
                    + "\(Output.text(result["bytes"])) bytes in \(Output.text(result["durationMs"])) ms",
                "  \(Output.text(result["path"]))",
            ]
        }
    }
}
