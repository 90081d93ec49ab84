import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl notify`: hands heraldd a notification's content (`update-content`) and
/// prints the content it made and the delivery decision in words.
struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Make a notification a communication notification and print how it is delivered, and why."
    )

    enum Level: String, ExpressibleByArgument, CaseIterable { case passive, active, timeSensitive, critical }

    @OptionGroup var client: ClientOptions
    @Option(help: "The app, a reverse-DNS name.") var app: String
    @Option(help: "The notification's identifier (default: heraldd makes one); the same again replaces it.") var identifier: String?
    @Option(help: "The donated interaction this notification is about.") var interaction: String?
    @Option(help: "The title.") var title: String?
    @Option(help: "The subtitle.") var subtitle: String?
    @Option(help: "The body.") var body: String?
    @Option(help: "The interruption level.") var level: Level?
    @Option(help: "The thread identifier.") var thread: String?
    @Option(help: "The category identifier.") var category: String?
    @Option(help: "The relevance score, 0 to 1.") var relevance: Double?

    var params: [String: JSONValue] {
        var content: [String: JSONValue] = [:]
        if let title { content["title"] = title.json }
        if let subtitle { content["subtitle"] = subtitle.json }
        if let body { content["body"] = body.json }
        if let level { content["interruptionLevel"] = level.rawValue.json }
        if let thread { content["threadIdentifier"] = thread.json }
        if let category { content["categoryIdentifier"] = category.json }
        if let relevance { content["relevanceScore"] = relevance.json }
        var params: [String: JSONValue] = ["app": app.json, "content": content.json]
        if let interaction { params["interactionIdentifier"] = interaction.json }
        if let identifier { params["identifier"] = identifier.json }
        return params
    }

    func run() throws {
        try client.run("update-content", params: params, flags: Self.flags) { result in
            let identifier = (result["identifier"]?.stringValue).map { ["notification \($0)"] } ?? []
            return identifier + Self.contentLines(result["content"]) + DeliveryText.lines(result["delivery"])
        }
    }

    /// The flag that gives each member, for heraldd's errors.
    static let flags = [
        "/app": "--app", "/identifier": "--identifier", "/interactionIdentifier": "--interaction", "/content/title": "--title",
        "/content/subtitle": "--subtitle", "/content/body": "--body", "/content/interruptionLevel": "--level",
        "/content/threadIdentifier": "--thread", "/content/categoryIdentifier": "--category", "/content/relevanceScore": "--relevance",
    ]

    static func contentLines(_ content: JSONValue?) -> [String] {
        guard let content, content.objectValue != nil else { return [] }
        var lines: [String] = []
        let labels = [("title", "title"), ("subtitle", "subtitle"), ("body", "body"), ("threadIdentifier", "thread"), ("categoryIdentifier", "category")]
        for (key, label) in labels {
            if let value = content[key]?.stringValue { lines.append("\(label.padded(to: 9)) \(value)") }
        }
        if let communication = content["communication"], communication.objectValue != nil {
            let group = Output.bool(communication["isGroup"]) ? " (a group)" : ""
            lines.append("from      \(PersonArgument.describe(communication["sender"]))\(group)")
        }
        return lines
    }
}

/// A delivery decision in words, with the daemon's reasons.
enum DeliveryText {
    static func lines(_ delivery: JSONValue?) -> [String] {
        guard let delivery, delivery.objectValue != nil else { return [] }
        let presentation = delivery["presentation"]?.stringValue ?? "?"
        var headline: String
        switch presentation {
        case "alert": headline = "Delivered as an alert"
        case "quiet": headline = "Delivered quietly"
        case "summary": headline = "Held for the scheduled summary"
        default: headline = "Delivered as \(presentation)"
        }
        if let at = delivery["deliverAt"]?.stringValue { headline += ", at \(at)" }
        var traits: [String] = []
        if Output.bool(delivery["sound"]) { traits.append("sound") }
        if Output.bool(delivery["lightsScreen"]) { traits.append("lights the screen") }
        if Output.bool(delivery["announce"]) { traits.append("announced") }
        if Output.bool(delivery["breaksThroughFocus"]) { traits.append("breaks through Focus") }
        if Output.bool(delivery["breaksThroughSummary"]) { traits.append("breaks through the summary") }
        if Output.bool(delivery["bypassesRinger"]) { traits.append("bypasses the ringer") }
        headline += traits.isEmpty ? ": no sound, no light." : ": " + traits.joined(separator: ", ") + "."
        var lines = [headline]
        for reason in delivery["reasons"]?.arrayValue ?? [] {
            let causes = (reason["causes"]?.strings).map { ": " + $0.joined(separator: ", ") } ?? ""
            lines.append("  because: \(Output.text(reason["message"])) [\(Output.text(reason["code"]))\(causes)]")
        }
        return lines
    }
}
