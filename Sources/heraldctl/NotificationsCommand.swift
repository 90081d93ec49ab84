import ArgumentParser
import Foundation
import HeraldProtocol

/// `heraldctl notifications list|remove`: the notification list (`list-notifications`,
/// `remove-notifications`). A caller sees its own uid's list, every app's or one's; an
/// administrator may name a `--uid`.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List or remove the notifications heraldd keeps, delivered and scheduled.",
        subcommands: [List.self, Apps.self, Remove.self],
        defaultSubcommand: List.self
    )

    enum State: String, ExpressibleByArgument, CaseIterable { case delivered, scheduled }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The notifications, newest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this app's (default: every app's).") var app: String?
        @Option(help: "Only delivered or only scheduled notifications.") var state: State?
        @Option(help: "At most this many.") var limit: Int?
        @Option(help: "The uid whose list it is (administrators; default: yours).") var uid: UInt32?

        func run() throws {
            var params: [String: JSONValue] = [:]
            if let app { params["app"] = app.json }
            if let state { params["state"] = state.rawValue.json }
            if let uid { params["uid"] = uid.json }
            let notifications = try Self.allPages(of: params, limit: limit, connection: client.connect())
            if client.json {
                Output.printJSON(["notifications": notifications.json])
            } else {
                Output.print(notifications.isEmpty ? ["No notifications."] : notifications.flatMap(NotificationText.lines))
            }
        }

        /// Every page of `list-notifications` (each within heraldd's `--max-response-bytes`),
        /// following `nextCursor`, until the list or `limit` ends.
        static func allPages(of params: [String: JSONValue], limit: Int?, connection: DaemonConnection) throws(CtlFailure) -> [JSONValue] {
            var notifications: [JSONValue] = []
            var cursor: String?
            repeat {
                var page = params
                if let cursor { page["cursor"] = cursor.json }
                if let limit { page["limit"] = (limit - notifications.count).json }
                let result = try connection.call("list-notifications", params: page)
                notifications += result["notifications"]?.arrayValue ?? []
                cursor = result["nextCursor"]?.stringValue
            } while cursor != nil && limit.map({ notifications.count < $0 }) ?? true
            return notifications
        }
    }

    struct Apps: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The apps that have notified you: each with how many notifications heraldd keeps, and its newest.",
            discussion: "Read from every page of list-notifications (every app's), so it counts what the list keeps now."
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "The uid whose apps they are (administrators; default: yours).") var uid: UInt32?

        func run() throws {
            let params: [String: JSONValue] = uid.map { ["uid": $0.json] } ?? [:]
            let notifications = try List.allPages(of: params, limit: nil, connection: client.connect())
            let apps = Self.apps(notifications)
            if client.json {
                Output.printJSON(["apps": apps.json])
            } else if apps.isEmpty {
                Output.print(["No app has notified you."])
            } else {
                Output.print(apps.map { app in
                    let count = app["notifications"]?.intValue ?? 0
                    return "\(Output.text(app["app"]))  \(count == 1 ? "1 notification" : "\(count) notifications"), newest \(Output.text(app["newestReceivedAt"]))"
                })
            }
        }

        /// Each app of `notifications` (newest first), in the order of its newest: its name,
        /// how many, and when the newest came.
        static func apps(_ notifications: [JSONValue]) -> [[String: JSONValue]] {
            var apps: [[String: JSONValue]] = []
            var index: [String: Int] = [:]
            for notification in notifications where notification.objectValue != nil {
                guard let app = notification["app"]?.stringValue else { continue }
                if let at = index[app] {
                    apps[at]["notifications"] = ((apps[at]["notifications"]?.intValue ?? 0) + 1).json
                } else {
                    index[app] = apps.count
                    apps.append(["app": app.json, "notifications": 1, "newestReceivedAt": notification["receivedAt"] ?? JSONValue.null])
                }
            }
            return apps
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove notifications by identifier, or all of an app's.")
        @OptionGroup var client: ClientOptions
        @Option(help: "The app (administrators may leave it out with --uid --all: every app).") var app: String?
        @Flag(help: "Remove every notification of the app.") var all = false
        @Option(help: "The uid whose list it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The identifiers of the notifications to remove.") var identifiers: [String] = []

        func validate() throws {
            if all == !identifiers.isEmpty { throw ValidationError("Name the identifiers to remove, or pass --all (not both).") }
        }

        func run() throws {
            var params: [String: JSONValue] = all ? ["all": true] : ["identifiers": identifiers.json]
            if let app { params["app"] = app.json }
            if let uid { params["uid"] = uid.json }
            try client.run("remove-notifications", params: params) { result in
                let removed = result["removed"]?.intValue ?? 0
                return [removed == 1 ? "Removed 1 notification." : "Removed \(removed) notifications."]
            }
        }
    }
}

/// A kept notification in words: one headline, then its content and decision, indented.
enum NotificationText {
    static func lines(_ notification: JSONValue) -> [String] {
        guard notification.objectValue != nil else { return [] }
        let state = notification["state"]?.stringValue ?? "?"
        let when = (state == "delivered" ? notification["deliveredAt"] : notification["receivedAt"])?.stringValue
        var headline = "\(Output.text(notification["identifier"])) \(Output.text(notification["app"])) \(state)"
        if let when { headline += " \(when)" }
        let delivery = notification["delivery"]
        if state == "scheduled", let at = delivery?["deliverAt"]?.stringValue { headline += ", summary at \(at)" }
        let title = notification["content"]["title"]?.stringValue
        return [headline] + (title.map { ["  \($0)"] } ?? [])
    }

    /// One line for a presenter event in `heraldctl watch`.
    static func brief(_ notification: JSONValue?) -> String {
        guard let notification, notification.objectValue != nil else { return "-" }
        let presentation = notification["delivery"]["presentation"]?.stringValue ?? "?"
        return "\(Output.text(notification["app"])) \(Output.text(notification["identifier"])) (\(presentation))"
    }
}
