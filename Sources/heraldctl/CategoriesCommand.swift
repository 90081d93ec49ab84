import ArgumentParser
import FoundationEssentials
import HeraldClient
import HeraldProtocol

/// `heraldctl categories set|show`: an app's notification categories and their actions
/// (`set-notification-categories`, `get-notification-categories`), always the caller's own uid's.
struct CategoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "Set or show an app's notification categories and their actions.",
        subcommands: [Set.self, Show.self],
        defaultSubcommand: Show.self
    )

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the app's categories with those in a JSON file (- for standard input).",
            discussion: """
                The file holds the categories as set-notification-categories takes them: a JSON \
                array [{"identifier", "actions": [{"identifier", "title", "options"?, "icon"?, \
                "textInput"?}], "options"?}], or an object with a "categories" member. An empty \
                array clears the app's categories.
                """
        )
        @OptionGroup var client: ClientOptions
        @Argument(help: "The app.") var app: String
        @Option(help: ArgumentHelp("The JSON file of categories, or - for standard input.", valueName: "file")) var file: String

        func run() throws {
            let data: [UInt8]
            if file == "-" {
                data = StandardStreams.readInput()
            } else {
                guard let read = FileManager.default.contents(atPath: file) else {
                    throw CtlFailure(.usage, ["heraldctl: cannot read \(file)"])
                }
                data = [UInt8](read)
            }
            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(data, maxDepth: HeraldClient.deepestInput)
            } catch {
                throw CtlFailure(.usage, ["heraldctl: \(file) is not valid JSON: \(String(decoding: data.prefix(80), as: UTF8.self))"])
            }
            let categories = parsed["categories"] ?? parsed
            guard case .array = categories else {
                throw CtlFailure(.usage, ["heraldctl: \(file) holds neither an array of categories nor an object with \"categories\"."])
            }
            try client.run("set-notification-categories", params: ["app": app.json, "categories": categories.json]) { result in
                CategoryText.lines(result, set: true)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The app's categories, each with its actions.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The app.") var app: String

        func run() throws {
            try client.run("get-notification-categories", params: ["app": app.json]) { result in CategoryText.lines(result, set: false) }
        }
    }
}

/// An app's categories in words: one line per category, one indented line per action.
enum CategoryText {
    static func lines(_ result: JSONValue, set: Bool) -> [String] {
        let app = Output.text(result["app"])
        let categories = result["categories"]?.arrayValue ?? []
        guard !categories.isEmpty else { return [set ? "\(app) has no categories now." : "\(app) has no categories."] }
        let counted = categories.count == 1 ? "1 category" : "\(categories.count) categories"
        var lines = [set ? "\(app) has \(counted) now:" : "\(app) has \(counted):"]
        for category in categories {
            let options = category["options"]?.strings ?? []
            lines.append("  \(Output.text(category["identifier"]))" + (options.isEmpty ? "" : " (\(options.joined(separator: ", ")))"))
            for action in category["actions"]?.arrayValue ?? [] {
                var traits = action["options"]?.strings ?? []
                if let icon = action["icon"], icon.objectValue != nil, let name = (icon["systemImageName"] ?? icon["templateImageName"])?.stringValue {
                    traits.append("icon \(name)")
                }
                if let input = action["textInput"], input.objectValue != nil {
                    traits.append("text input, \(Output.text(input["buttonTitle"])) button")
                }
                let title = "\"\(Output.text(action["title"]))\""
                lines.append("    \(Output.text(action["identifier"])): \(title)" + (traits.isEmpty ? "" : " [\(traits.joined(separator: "; "))]"))
            }
        }
        return lines
    }
}
