import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl donate`: records a message or a call, as an app would.
struct DonateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "donate",
        abstract: "Donate an interaction: an incoming or outgoing message, or a call.",
        discussion: """
            People are written as "Name <email>", +phone, or a bare handle. A message needs \
            --conversation; a call (--call audio|video) takes --from (incoming) or --to (outgoing) as its contacts. \
            A message is a group's when it names someone besides the sender and you (--to): only then is \
            --group-name its subtitle, so --group-name needs at least one --to.
            """
    )

    enum CallKind: String, ExpressibleByArgument, CaseIterable { case audio, video }

    @OptionGroup var client: ClientOptions
    @Option(help: "The app, a reverse-DNS name such as org.example.chat.") var app: String
    @Option(help: "The sender of an incoming message, or the caller.") var from: String?
    @Option(help: "A recipient (repeat for several): the people besides the sender and you.") var to: [String] = []
    @Option(help: "The conversation's identifier (messages).") var conversation: String?
    @Option(help: "The group's name, spoken and shown as the subtitle (a message with at least one --to).") var groupName: String?
    @Option(help: "The message's text.") var text: String?
    @Option(help: "Donate a call instead of a message.") var call: CallKind?
    @Flag(help: "The user sent it (default: incoming).") var outgoing = false
    @Option(help: "The interaction's identifier (default: a new UUID chosen by heraldd).") var id: String?
    @Option(help: "The interaction's group identifier.") var group: String?

    func validate() throws {
        if call == nil, conversation == nil { throw ValidationError("A message needs --conversation (or give --call audio|video).") }
        if !outgoing, from == nil { throw ValidationError("An incoming interaction needs --from (or give --outgoing).") }
        if groupName != nil, call != nil { throw ValidationError("--group-name names a message's group; a call takes none. Leave it out.") }
        if groupName != nil, to.isEmpty {
            throw ValidationError(
                "--group-name needs the group's other people with --to (repeat it): a message is a group's only when it names someone besides the sender and you.")
        }
        if outgoing, call == nil, from != nil { throw ValidationError("An outgoing message has no sender: the user sent it. Leave --from out.") }
    }

    var params: [String: JSONValue] {
        var intent: [String: JSONValue]
        if let call {
            let contacts = (from.map { [$0] } ?? []) + to
            intent = ["type": "startCall", "contacts": .array(contacts.map(PersonArgument.parse)), "callCapability": "\(call)Call".json]
        } else {
            intent = ["type": "sendMessage", "conversationIdentifier": (conversation ?? "").json]
            if let from { intent["sender"] = PersonArgument.parse(from) }
            if !to.isEmpty { intent["recipients"] = .array(to.map(PersonArgument.parse)) }
            if let text { intent["content"] = text.json }
            if let groupName { intent["speakableGroupName"] = groupName.json }
        }
        var interaction: [String: JSONValue] = ["direction": outgoing ? "outgoing" : "incoming", "intent": intent.json]
        if let id { interaction["identifier"] = id.json }
        if let group { interaction["groupIdentifier"] = group.json }
        return ["app": app.json, "interaction": interaction.json]
    }

    /// The flag that gives each member, for heraldd's errors.
    static let flags = [
        "/app": "--app", "/interaction/identifier": "--id", "/interaction/groupIdentifier": "--group",
        "/interaction/intent/sender": "--from", "/interaction/intent/recipients": "--to", "/interaction/intent/contacts": "--from/--to",
        "/interaction/intent/conversationIdentifier": "--conversation", "/interaction/intent/content": "--text",
        "/interaction/intent/speakableGroupName": "--group-name",
    ]

    func run() throws {
        try client.run("donate", params: params, flags: Self.flags) { result in
            ["donated \(Output.text(result["identifier"])) at \(Output.text(result["donatedAt"]))"]
        }
    }
}
