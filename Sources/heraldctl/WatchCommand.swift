import ArgumentParser
import Dispatch
import FoundationEssentials
import HeraldCore
import HeraldClient
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `heraldctl watch`: subscribes and prints each server notification as one line, until
/// interrupted (SIGINT and SIGTERM exit 0).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print what heraldd announces as it happens, until interrupted.",
        discussion: """
            --notifications: every notification delivered, every summary and every removal, \
            and every app asking for Focus authorization and its answer \
            (a presenter's view, `subscribe-notifications`) for your uid, or with --uid for \
            another (administrators; --all-uids for every uid). --app: that app's Focus \
            authorization and status. --responses APP: each response a person makes to the \
            app's notifications as it is made (`subscribe-responses` with observe): the \
            responses waiting for the app stay the app's, for it to take.
            """
    )

    @OptionGroup var client: ClientOptions
    @Option(help: "Watch this app's Focus status (repeat for several).") var app: [String] = []
    @Flag(help: "Watch delivered notifications, summaries and removals.") var notifications = false
    @Option(help: "With --notifications: this uid's (administrators; default: yours).") var uid: UInt32?
    @Flag(help: "With --notifications: every uid's (administrators).") var allUids = false
    @Option(help: "Watch the responses to this app's notifications (repeat for several).") var responses: [String] = []

    func validate() throws {
        if app.isEmpty && !notifications && responses.isEmpty {
            throw ValidationError("Name at least one --app or --responses APP to watch, or pass --notifications.")
        }
        if (uid != nil || allUids) && !notifications { throw ValidationError("--uid and --all-uids go with --notifications.") }
        if uid != nil && allUids { throw ValidationError("Pass --uid or --all-uids, not both.") }
    }

    func run() throws {
        // Interrupting is how watch ends: exit 0. Unblock the signals too, since a parent's
        // blocked mask is inherited across exec.
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        let connection = try client.connect()
        let messages = connection.notificationMessages()
        if notifications {
            // Without a uid heraldd takes an administrator's subscription as "every uid"
            // and anyone else's as their own, so name the caller's own uid unless asked.
            let params: [String: JSONValue] = allUids ? [:] : ["uid": (uid ?? getuid()).json]
            let result = try connection.call("subscribe-notifications", params: params)
            if client.json {
                Output.printJSON(result)
            } else {
                Output.print(["\(Self.time()) watching notifications of \(allUids ? "every uid" : "uid \(uid ?? getuid())")"])
            }
        }
        for app in app {
            let result = try connection.call("request-focus", params: ["app": app.json, "subscribe": true])
            if client.json {
                // The starting point: request-focus's result; the notifications that follow have a "method".
                Output.printJSON(result)
            } else {
                let status = result["focusStatus"]
                Output.print(["\(Self.time()) watching \(app): \(FocusStatusText.words(status))"])
            }
        }
        for app in responses {
            let result = try connection.call("subscribe-responses", params: ["app": app.json, "observe": true])
            if client.json {
                Output.printJSON(result)
            } else {
                let waiting = result["waiting"]
                Output.print(["\(Self.time()) watching responses of \(app): \(Output.text(waiting)) waiting for the app, left for it"])
            }
        }
        // Each notification as it comes, until the connection ends.
        let json = client.json
        let ended = DispatchSemaphore(value: 0)
        Task {
            for await message in messages { Self.show(message, json: json) }
            ended.signal()
        }
        ended.wait()
        throw CtlFailure(.unavailable, ["heraldctl: heraldd closed the connection on \(client.socketPath) (it may be stopping)."])
    }

    private static func show(_ message: JSONValue, json: Bool) {
        if json {
            Output.printJSON(message)
        } else {
            let method = message["method"]?.stringValue ?? "?"
            Output.print(["\(Self.time()) \(WatchEvent.line(method: method, params: message["params"] ?? .object(JSONObject())))"])
        }
    }

    /// The local time of day, `HH:mm:ss`, in the system's zone.
    static func time(_ now: Date = Date(), in zone: ZoneRules = .current) -> String {
        let wall = Int64((now.timeIntervalSince1970 + Double(zone.secondsFromUTC(at: now))).rounded(.down))
        let second = Int((wall % 86_400 + 86_400) % 86_400)
        func two(_ value: Int) -> String { (value < 10 ? "0" : "") + String(value) }
        return "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    }
}

/// One server notification in words: one case per kind.
enum WatchEvent {
    static func line(method: String, params: JSONValue) -> String {
        switch method {
        case "focus-changed":
            let authorization = params["authorizationStatus"].map { "; authorization \(Output.text($0))" } ?? ""
            return "focus-changed \(Output.text(params["app"])): \(FocusStatusText.words(params["focusStatus"]))\(authorization)"
        case "authorization-requested":
            return "authorization requested: \(AppSettingsText.request(params))"
        case "authorization-answered":
            return "authorization answered \(Output.text(params["app"])) (uid \(Output.text(params["uid"]))): \(Output.text(params["authorizationStatus"]))"
        case "notification-delivered":
            return "delivered uid \(Output.text(params["uid"])): \(NotificationText.brief(params["notification"]))"
        case "summary-delivered":
            let notifications = params["notifications"]?.arrayValue ?? []
            let ranked = notifications.prefix(5).map(NotificationText.brief).joined(separator: "; ")
            let more = notifications.count > 5 ? "; +\(notifications.count - 5) more" : ""
            let quietly = (params["focus"]?.stringValue).map { " quietly (Focus \u{201C}\($0)\u{201D})" } ?? ""
            return "summary uid \(Output.text(params["uid"]))\(quietly): \(notifications.count) notification(s): \(ranked)\(more)"
        case "notifications-removed":
            let identifiers = (params["identifiers"]?.strings ?? []).joined(separator: ", ")
            return "removed uid \(Output.text(params["uid"])) \(Output.text(params["app"])): \(identifiers)"
        case "notification-response":
            let text = (params["userText"]?.stringValue).map { " \"\($0)\"" } ?? ""
            return "response \(Output.text(params["app"])) \(Output.text(params["identifier"])): \(Output.text(params["actionIdentifier"]))\(text)"
        case "focus-digest":
            let entries = params["entries"]?.arrayValue ?? []
            let listed = entries.prefix(5).map { "\(FocusCommand.Missed.entryText($0)) (\(Output.text($0["count"])))" }.joined(separator: "; ")
            let rest = entries.dropFirst(5).reduce(params["unlisted"]?.intValue ?? 0) { $0 + ($1["count"]?.intValue ?? 0) }
            let more = rest > 0 ? "; and \(rest) more" : ""
            return "focus digest uid \(Output.text(params["uid"])): \(Output.text(params["focus"])) silenced \(Output.text(params["total"])): \(listed)\(more)"
        default:
            return "\(method) \(Output.jsonText(params))"
        }
    }
}
