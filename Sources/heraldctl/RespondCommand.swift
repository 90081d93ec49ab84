import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl respond APP ID ACTION [--text T]`: answer a notification as a person would
/// (`respond-to-notification`) — a presenter's part, from the shell.
struct RespondCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "respond",
        abstract: "Answer a notification with one of its actions, default (opened) or dismiss.",
        discussion: """
            The notification leaves the list, and the app hears notification-response on its \
            subscribe-responses connections (heraldctl watch --responses APP), now or when it \
            next subscribes. A text-input action needs --text; no other action takes it.
            """
    )

    @OptionGroup var client: ClientOptions
    @Argument(help: "The app.") var app: String
    @Argument(help: "The notification's identifier.") var identifier: String
    @Argument(help: "The action: one of its category's, default, or dismiss.") var action: String
    @Option(help: "What the person typed, for a text-input action.") var text: String?
    @Option(help: "The uid whose notification it is (administrators; default: yours).") var uid: UInt32?

    func run() throws {
        var params: [String: JSONValue] = ["app": app.json, "identifier": identifier.json, "actionIdentifier": action.json]
        if let text { params["userText"] = text.json }
        if let uid { params["uid"] = uid.json }
        let flags = ["/app": "APP", "/identifier": "ID", "/actionIdentifier": "ACTION", "/userText": "--text", "/uid": "--uid"]
        try client.run("respond-to-notification", params: params, flags: flags) { result in
            let heard = result["response"]?.stringValue == "delivered" ? "the app heard it" : "it waits for the app to subscribe"
            return ["Answered \(Output.text(result["app"])) \(Output.text(result["identifier"])) with \(Output.text(result["actionIdentifier"])): \(heard)."]
        }
    }
}
