import ArgumentParser
import FoundationEssentials
import HeraldProtocol

extension FocusCommand {
    /// `heraldctl focus missed` (`get-focus-digest`): what the last Focus silenced, and
    /// what the Focus on now has silenced so far.
    struct Missed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what your last Focus silenced (its digest), and the Focus on now so far.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var owner: FocusCommand.Owner

        func run() throws {
            try client.run("get-focus-digest", params: owner.adding(to: [:]), human: Self.lines)
        }

        static func lines(_ result: JSONValue) -> [String] {
            var lines: [String] = []
            if let running = result["running"], running != .null {
                lines += digestLines(running, heading: "While \(running["focus"]?.stringValue ?? "?") is on (since \(Output.text(running["startedAt"])))")
            }
            if let digest = result["digest"], digest != .null {
                if !lines.isEmpty { lines.append("") }
                let ended = digest["endedBy"]?.stringValue.map { " (\($0))" } ?? ""
                lines += digestLines(
                    digest,
                    heading: "While \(digest["focus"]?.stringValue ?? "?") was on, \(Output.text(digest["startedAt"])) to \(Output.text(digest["endedAt"]))\(ended)")
            }
            return lines.isEmpty ? ["No Focus has silenced anything yet."] : lines
        }

        /// "org.example.chat: Team" (a conversation: its name, else its senders, else its
        /// identifier) or "org.example.mail" (an app).
        static func entryText(_ entry: JSONValue) -> String {
            let app = entry["app"]?.stringValue ?? "?"
            guard let conversation = entry["conversationIdentifier"]?.stringValue else { return app }
            return "\(app): \(entry["conversationName"]?.stringValue ?? entry["senders"]?.strings?.joined(separator: ", ") ?? conversation)"
        }

        /// The heading with the total, then an entry a line, most relevant first.
        private static func digestLines(_ digest: JSONValue, heading: String) -> [String] {
            let total = digest["total"]?.intValue ?? 0
            var lines = ["\(heading): \(total) notification\(total == 1 ? "" : "s") silenced"]
            for entry in digest["entries"]?.arrayValue ?? [] {
                lines.append("  \(entry["count"]?.intValue ?? 0)\t\(entryText(entry))")
            }
            if let unlisted = digest["unlisted"]?.intValue, unlisted > 0 { lines.append("  \(unlisted)\tand more, of other apps and conversations") }
            return lines
        }
    }
}
