import ArgumentParser
import FoundationEssentials
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `heraldctl authorization show|allow|deny|set|requests`: an app's Focus authorization,
/// the person's answer to its request, and the requests waiting for one.
struct AuthorizationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorization",
        abstract: "Show or decide whether an app may know when you have a Focus on.",
        discussion: """
            Your own apps' authorization is yours to decide; --uid names another uid's \
            (administrators). `requests` lists the apps waiting for an answer.
            """,
        subcommands: [Show.self, Allow.self, Deny.self, Set.self, Requests.self],
        defaultSubcommand: Show.self
    )

    /// The options that name a (uid, app).
    struct Target: ParsableArguments {
        @Argument(help: "The app, such as org.example.chat.") var app: String
        @Option(help: "The uid whose app it is (administrators; default: yours).") var uid: UInt32?

        var params: [String: JSONValue] {
            var params: [String: JSONValue] = ["app": app.json]
            if let uid { params["uid"] = uid.json }
            return params
        }
    }

    /// `get-app-settings`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An app's Focus authorization, and its request if one waits.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var target: Target

        func run() throws {
            try client.run("get-app-settings", params: target.params) { result in
                AppSettingsText.authorization(result)
            }
        }
    }

    /// `set-focus-authorization` with `authorized`.
    struct Allow: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Allow the app to know when you have a Focus on.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var target: Target

        func run() throws { try AuthorizationCommand.decide(target, "authorized", client: client) }
    }

    /// `set-focus-authorization` with `denied`.
    struct Deny: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Don't allow the app to know when you have a Focus on.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var target: Target

        func run() throws { try AuthorizationCommand.decide(target, "denied", client: client) }
    }

    /// `set-focus-authorization` with any status.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set any status: notDetermined (ask again), restricted (administrators), denied or authorized.")
        enum Status: String, ExpressibleByArgument, CaseIterable { case notDetermined, restricted, denied, authorized }

        @OptionGroup var client: ClientOptions
        @OptionGroup var target: Target
        @Argument(help: "notDetermined, restricted, denied or authorized.") var status: Status

        func run() throws { try AuthorizationCommand.decide(target, status.rawValue, client: client) }
    }

    /// `list-authorization-requests`.
    struct Requests: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The apps waiting for an answer, oldest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "This uid's (administrators; default: yours).") var uid: UInt32?
        @Flag(help: "Every uid's (administrators).") var allUids = false

        func validate() throws {
            if uid != nil && allUids { throw ValidationError("Pass --uid or --all-uids, not both.") }
        }

        func run() throws {
            // Without a uid heraldd lists every uid's for an administrator: name the
            // caller's own unless asked.
            let params: [String: JSONValue] = allUids ? [:] : ["uid": (uid ?? getuid()).json]
            try client.run("list-authorization-requests", params: params) { result in
                let requests = result["requests"]?.arrayValue ?? []
                guard !requests.isEmpty else { return ["No app is waiting for an answer."] }
                return requests.map { AppSettingsText.request($0) }
            }
        }
    }

    static func decide(_ target: Target, _ status: String, client: ClientOptions) throws {
        var params = target.params
        params["status"] = status.json
        try client.run("set-focus-authorization", params: params) { result in
            ["\(Output.text(result["app"])) (uid \(Output.text(result["uid"]))): Focus authorization \(Output.text(result["status"]))"]
        }
    }
}

/// `heraldctl capabilities show|set`: an app's communication, timeSensitive and critical
/// capabilities.
struct CapabilitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capabilities",
        abstract: "Show or set what kinds of notification an app may post.",
        discussion: """
            communication and timeSensitive are your own switches for your apps; critical, \
            and --uid for another uid's apps, are for administrators.
            """,
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    /// `get-app-settings`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An app's capabilities.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var target: AuthorizationCommand.Target

        func run() throws {
            try client.run("get-app-settings", params: target.params) { result in
                [AppSettingsText.capabilities(result)]
            }
        }
    }

    /// `set-capabilities`.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an app's capabilities; those left out keep their value.")
        @OptionGroup var client: ClientOptions
        @OptionGroup var target: AuthorizationCommand.Target
        @Flag(inversion: .prefixedNo, help: "Communication notifications.") var communication: Bool?
        @Flag(inversion: .prefixedNo, help: "Time Sensitive notifications.") var timeSensitive: Bool?
        @Flag(inversion: .prefixedNo, help: "Critical notifications (administrators).") var critical: Bool?

        func validate() throws {
            if communication == nil && timeSensitive == nil && critical == nil {
                throw ValidationError("Name at least one capability: --[no-]communication, --[no-]time-sensitive, --[no-]critical.")
            }
        }

        func run() throws {
            var params = target.params
            if let communication { params["communication"] = communication.json }
            if let timeSensitive { params["timeSensitive"] = timeSensitive.json }
            if let critical { params["critical"] = critical.json }
            try client.run("set-capabilities", params: params) { result in
                [AppSettingsText.capabilities(result)]
            }
        }
    }
}

/// An app's settings and requests in words.
enum AppSettingsText {
    static func authorization(_ settings: JSONValue) -> [String] {
        var lines = ["\(Output.text(settings["app"])) (uid \(Output.text(settings["uid"]))): Focus authorization \(Output.text(settings["authorizationStatus"]))"]
        if let requestedAt = settings["authorizationRequestedAt"]?.stringValue {
            lines.append("  asked on \(requestedAt), waiting for an answer (heraldctl authorization allow|deny)")
        }
        return lines
    }

    static func capabilities(_ settings: JSONValue) -> String {
        let names = ["communication", "timeSensitive", "critical"].map { "\($0) \(Output.bool(settings[$0]) ? "on" : "off")" }
        return "\(Output.text(settings["app"])) (uid \(Output.text(settings["uid"]))): \(names.joined(separator: ", "))"
    }

    /// `authorization-requested`, or an element of `list-authorization-requests`.
    static func request(_ request: JSONValue) -> String {
        "\(Output.text(request["app"])) (uid \(Output.text(request["uid"]))) asks to know when you have a Focus on, since \(Output.text(request["requestedAt"]))"
    }
}
