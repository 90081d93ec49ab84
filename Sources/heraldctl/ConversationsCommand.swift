import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// `heraldctl conversations list|mute|unmute|priority`: the conversations the person
/// controls (`list-conversations`, `set-conversation`). A caller acts on its own uid's; an
/// administrator may name a `--uid`.
struct ConversationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conversations",
        abstract: "List, mute, unmute or mark priority the conversations you control.",
        discussion: """
            A muted conversation's messages arrive quietly, whatever Focus is on (critical ones still \
            alert); a priority conversation's break through a Focus like an allowed person. A conversation \
            is an app's conversationIdentifier, as its notifications name it (notifications list shows it); \
            mute and priority warn when none of the app's notifications names the conversation given, \
            which is most often a typo, and set it all the same (its messages may not have come yet).
            """,
        subcommands: [List.self, Mute.self, Unmute.self, Priority.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The conversations you muted or marked priority, by app.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this app's (default: every app's).") var app: String?
        @Option(help: "The uid whose conversations they are (administrators; default: yours).") var uid: UInt32?

        func run() throws {
            var params: [String: JSONValue] = [:]
            if let app { params["app"] = app.json }
            if let uid { params["uid"] = uid.json }
            let conversations = try NotificationsCommand.List.allPages(
                of: params, limit: nil, method: "list-conversations", member: "conversations", connection: client.connect())
            if client.json {
                Output.printJSON(["conversations": conversations.json])
            } else {
                Output.print(conversations.isEmpty ? ["No conversations muted or marked priority."] : conversations.map(ConversationText.line))
            }
        }
    }

    struct Mute: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mute a conversation: its messages arrive quietly until the mute ends.",
            discussion: "Critical messages still alert, and calls are never muted (they name no conversation)."
        )
        @OptionGroup var client: ClientOptions
        @Option(name: .customLong("for"), help: "How long: seconds, or a number with s, m, h or d (1h, 30m).") var duration: String?
        @Option(help: "Until this time instead (RFC 3339, e.g. 2026-11-27T08:00:00Z).") var until: String?
        @Flag(help: "Until you unmute it.") var forever = false
        @Option(help: "The uid whose conversation it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The conversation's app.") var app: String
        @Argument(help: "The conversation's identifier.") var conversation: String

        func validate() throws {
            if [duration != nil, until != nil, forever].filter({ $0 }).count != 1 {
                throw ValidationError("Say how long with --for, until when with --until, or --forever (one of them).")
            }
            if let duration, DurationText.seconds(duration) == nil { throw ValidationError("--for is seconds, or a number with s, m, h or d; got \(duration).") }
        }

        func run() throws {
            var mute: [String: JSONValue] = [:]
            if let duration, let seconds = DurationText.seconds(duration) { mute["seconds"] = .number(JSONNumber(seconds)) }
            if let until { mute["until"] = until.json }
            if forever { mute["forever"] = true }
            try client.run("set-conversation", params: ConversationText.params(app, conversation, uid, ["mute": .members(mute)]), flags: ConversationText.flags) { result in
                [ConversationText.line(result)]
            }
            try ConversationText.warnIfUnknown(app, conversation, uid, client: client)
        }
    }

    struct Unmute: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End a conversation's mute.")
        @OptionGroup var client: ClientOptions
        @Option(help: "The uid whose conversation it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The conversation's app.") var app: String
        @Argument(help: "The conversation's identifier.") var conversation: String

        func run() throws {
            try client.run("set-conversation", params: ConversationText.params(app, conversation, uid, ["unmute": true]), flags: ConversationText.flags) { result in
                [ConversationText.line(result)]
            }
        }
    }

    struct Priority: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a conversation priority: its messages break through a Focus like an allowed person.",
            discussion: "Even a Focus that silences its sender or app. While the conversation is muted, the mute wins."
        )
        @OptionGroup var client: ClientOptions
        @Flag(help: "Take its priority away instead.") var off = false
        @Option(help: "The uid whose conversation it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The conversation's app.") var app: String
        @Argument(help: "The conversation's identifier.") var conversation: String

        func run() throws {
            try client.run("set-conversation", params: ConversationText.params(app, conversation, uid, ["priority": (!off).json]), flags: ConversationText.flags) { result in
                [ConversationText.line(result)]
            }
            if !off { try ConversationText.warnIfUnknown(app, conversation, uid, client: client) }
        }
    }
}

/// How `heraldctl conversations` prints a conversation for a person.
enum ConversationText {
    static func params(_ app: String, _ conversation: String, _ uid: UInt32?, _ change: [String: JSONValue]) -> [String: JSONValue] {
        var params = change
        params["app"] = app.json
        params["conversationIdentifier"] = conversation.json
        if let uid { params["uid"] = uid.json }
        return params
    }

    /// The argument or flag that gives each member, for heraldd's errors.
    static let flags = [
        "/app": "APP", "/conversationIdentifier": "CONVERSATION", "/mute/seconds": "--for", "/mute/until": "--until", "/uid": "--uid",
    ]

    /// Warns, on standard error, when none of the app's notifications names `conversation`:
    /// heraldd accepts any identifier (a conversation's messages may not have come yet), so
    /// a typo would otherwise go unnoticed. Names the conversations the app's notifications do.
    static func warnIfUnknown(_ app: String, _ conversation: String, _ uid: UInt32?, client: ClientOptions) throws(CtlFailure) {
        var params: [String: JSONValue] = ["app": app.json]
        if let uid { params["uid"] = uid.json }
        let notifications = try NotificationsCommand.List.allPages(of: params, limit: nil, connection: client.connect())
        var known: [String] = []
        for notification in notifications {
            guard let named = notification["content"]["communication"]["conversationIdentifier"]?.stringValue else { continue }
            if named == conversation { return }
            if !known.contains(named) { known.append(named) }
        }
        let others = known.isEmpty ? "it has none that names a conversation" : "those it has name " + known.prefix(10).joined(separator: ", ")
        CtlFailure(.success, [
            "heraldctl: warning: no notification of \(app) names conversation \(conversation) (\(others)); check its spelling."
        ]).report()
    }

    /// `org.example.chat c-trip: muted until 2026-11-27T09:00:00.000Z, priority`.
    static func line(_ conversation: JSONValue) -> String {
        var state: [String] = []
        if Output.bool(conversation["muted"]) {
            state.append(conversation["mutedUntil"]?.stringValue.map { "muted until \($0)" } ?? "muted until unmuted")
        }
        if Output.bool(conversation["priority"]) { state.append("priority") }
        return "\(Output.text(conversation["app"])) \(Output.text(conversation["conversationIdentifier"])): "
            + (state.isEmpty ? "neither muted nor priority" : state.joined(separator: ", "))
    }
}
