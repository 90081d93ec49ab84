import ArgumentParser
import Foundation

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

    var params: [String: Any] {
        var content: [String: Any] = [:]
        if let title { content["title"] = title }
        if let subtitle { content["subtitle"] = subtitle }
        if let body { content["body"] = body }
        if let level { content["interruptionLevel"] = level.rawValue }
        if let thread { content["threadIdentifier"] = thread }
        if let category { content["categoryIdentifier"] = category }
        if let relevance { content["relevanceScore"] = relevance }
        var params: [String: Any] = ["app": app, "content": content]
        if let interaction { params["interactionIdentifier"] = interaction }
        if let identifier { params["identifier"] = identifier }
        return params
    }

    func run() throws {
        try client.run("update-content", params: params) { result in
            let result = result as? [String: Any] ?? [:]
            let identifier = (result["identifier"] as? String).map { ["notification \($0)"] } ?? []
            return identifier + Self.contentLines(result["content"]) + DeliveryText.lines(result["delivery"])
        }
    }

    static func contentLines(_ content: Any?) -> [String] {
        guard let content = content as? [String: Any] else { return [] }
        var lines: [String] = []
        let labels = [("title", "title"), ("subtitle", "subtitle"), ("body", "body"), ("threadIdentifier", "thread"), ("categoryIdentifier", "category")]
        for (key, label) in labels {
            if let value = content[key] as? String { lines.append("\(label.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)") }
        }
        if let communication = content["communication"] as? [String: Any] {
            let group = Output.bool(communication["isGroup"]) ? " (a group)" : ""
            lines.append("from      \(PersonArgument.describe(communication["sender"]))\(group)")
        }
        return lines
    }
}

/// A delivery decision in words, with the daemon's reasons.
enum DeliveryText {
    static func lines(_ delivery: Any?) -> [String] {
        guard let delivery = delivery as? [String: Any] else { return [] }
        let presentation = delivery["presentation"] as? String ?? "?"
        var headline: String
        switch presentation {
        case "alert": headline = "Delivered as an alert"
        case "quiet": headline = "Delivered quietly"
        case "summary": headline = "Held for the scheduled summary"
        default: headline = "Delivered as \(presentation)"
        }
        if let at = delivery["deliverAt"] as? String { headline += ", at \(at)" }
        var traits: [String] = []
        if Output.bool(delivery["sound"]) { traits.append("sound") }
        if Output.bool(delivery["lightsScreen"]) { traits.append("lights the screen") }
        if Output.bool(delivery["announce"]) { traits.append("announced") }
        if Output.bool(delivery["breaksThroughFocus"]) { traits.append("breaks through Focus") }
        if Output.bool(delivery["breaksThroughSummary"]) { traits.append("breaks through the summary") }
        if Output.bool(delivery["bypassesRinger"]) { traits.append("bypasses the ringer") }
        headline += traits.isEmpty ? ": no sound, no light." : ": " + traits.joined(separator: ", ") + "."
        var lines = [headline]
        for reason in delivery["reasons"] as? [[String: Any]] ?? [] {
            let causes = (reason["causes"] as? [String]).map { ": " + $0.joined(separator: ", ") } ?? ""
            lines.append("  because: \(Output.text(reason["message"])) [\(Output.text(reason["code"]))\(causes)]")
        }
        return lines
    }
}
