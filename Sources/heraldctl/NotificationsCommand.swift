import ArgumentParser
import Foundation
import HeraldCore

/// `heraldctl notifications list|search|apps|snooze|remove`: the notification list
/// (`list-notifications`, `search-notifications`, `snooze-notification`,
/// `remove-notifications`). A caller sees its own uid's list, every app's or one's; an
/// administrator may name a `--uid`.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List, search, snooze or remove the notifications heraldd keeps, delivered and scheduled.",
        subcommands: [List.self, Search.self, Apps.self, Snooze.self, Remove.self],
        defaultSubcommand: List.self
    )

    enum State: String, ExpressibleByArgument, CaseIterable { case delivered, scheduled, snoozed }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The notifications, newest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this app's (default: every app's).") var app: String?
        @Option(help: "Only delivered, only scheduled or only snoozed notifications.") var state: State?
        @Option(help: "At most this many.") var limit: Int?
        @Option(help: "The uid whose list it is (administrators; default: yours).") var uid: UInt32?

        func run() throws {
            var params: [String: Any] = [:]
            if let app { params["app"] = app }
            if let state { params["state"] = state.rawValue }
            if let uid { params["uid"] = uid }
            let notifications = try Self.allPages(of: params, limit: limit, connection: client.connect())
            if client.json {
                Output.printJSON(["notifications": notifications])
            } else {
                Output.print(notifications.isEmpty ? ["No notifications."] : notifications.flatMap(NotificationText.lines))
            }
        }

        /// Every page of `list-notifications` (each within heraldd's `--max-response-bytes`),
        /// following `nextCursor`, until the list or `limit` ends.
        static func allPages(of params: [String: Any], limit: Int?, connection: DaemonConnection) throws(CtlFailure) -> [Any] {
            var notifications: [Any] = []
            var cursor: String?
            repeat {
                var page = params
                if let cursor { page["cursor"] = cursor }
                if let limit { page["limit"] = limit - notifications.count }
                let result = try connection.call("list-notifications", params: page) as? [String: Any]
                notifications += result?["notifications"] as? [Any] ?? []
                cursor = result?["nextCursor"] as? String
            } while cursor != nil && limit.map({ notifications.count < $0 }) ?? true
            return notifications
        }
    }

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The notifications that have these words, newest first.",
            discussion: """
                A notification is found when each word starts one of its words: in its title, subtitle, \
                body, thread, conversation, sender's name or address, or its app's name. Case and accents \
                do not matter: "heraldctl notifications search ann din" finds Ann Lee's "Dinner at eight?".
                """
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this app's (default: every app's).") var app: String?
        @Option(help: "Only delivered, only scheduled or only snoozed notifications.") var state: State?
        @Option(help: "Only those received at or after this time (RFC 3339, e.g. 2026-11-27T08:00:00Z).") var since: String?
        @Option(help: "Only those received before this time (RFC 3339).") var until: String?
        @Option(help: "At most this many, the newest (default: 50).") var limit: Int = 50
        @Option(help: "The uid whose notifications they are (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The words to look for.") var words: [String] = []

        func validate() throws {
            if words.isEmpty { throw ValidationError("Name a word to look for.") }
            if limit < 0 { throw ValidationError("--limit is how many at most, 0 or more.") }
        }

        func run() throws {
            var params: [String: Any] = ["query": words.joined(separator: " ")]
            if let app { params["app"] = app }
            if let state { params["state"] = state.rawValue }
            if let since { params["since"] = since }
            if let until { params["until"] = until }
            if let uid { params["uid"] = uid }
            let connection = try client.connect()
            var notifications: [Any] = []
            var cursor: String?
            repeat {
                var page = params
                if let cursor { page["cursor"] = cursor }
                page["limit"] = min(limit - notifications.count, 500)
                let result = try connection.call("search-notifications", params: page) as? [String: Any]
                notifications += result?["notifications"] as? [Any] ?? []
                cursor = result?["nextCursor"] as? String
            } while cursor != nil && notifications.count < limit
            if client.json {
                Output.printJSON(["notifications": notifications])
            } else {
                Output.print(notifications.isEmpty ? ["No notification has these words."] : notifications.flatMap(NotificationText.lines))
            }
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
            let params: [String: Any] = uid.map { ["uid": $0] } ?? [:]
            let notifications = try List.allPages(of: params, limit: nil, connection: client.connect())
            let apps = Self.apps(notifications)
            if client.json {
                Output.printJSON(["apps": apps])
            } else if apps.isEmpty {
                Output.print(["No app has notified you."])
            } else {
                Output.print(apps.map { app in
                    let count = app["notifications"] as? Int ?? 0
                    return "\(Output.text(app["app"]))  \(count == 1 ? "1 notification" : "\(count) notifications"), newest \(Output.text(app["newestReceivedAt"]))"
                })
            }
        }

        /// Each app of `notifications` (newest first), in the order of its newest: its name,
        /// how many, and when the newest came.
        static func apps(_ notifications: [Any]) -> [[String: Any]] {
            var apps: [[String: Any]] = []
            var index: [String: Int] = [:]
            for case let notification as [String: Any] in notifications {
                guard let app = notification["app"] as? String else { continue }
                if let at = index[app] {
                    apps[at]["notifications"] = (apps[at]["notifications"] as? Int ?? 0) + 1
                } else {
                    index[app] = apps.count
                    apps.append(["app": app, "notifications": 1, "newestReceivedAt": notification["receivedAt"] ?? NSNull()])
                }
            }
            return apps
        }
    }

    struct Snooze: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a delivered notification off: it comes back, delivered again, at its time.",
            discussion: "Presenters take it down now and show it again then; list shows it as snoozed meanwhile."
        )
        @OptionGroup var client: ClientOptions
        @Option(name: .customLong("for"), help: "How long: seconds, or a number with s, m, h or d (1h, 30m).") var duration: String?
        @Option(help: "Until this time instead (RFC 3339, e.g. 2026-11-27T08:00:00Z).") var until: String?
        @Option(help: "The uid whose notification it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The notification's app.") var app: String
        @Argument(help: "The notification's identifier.") var identifier: String

        func validate() throws {
            if (duration == nil) == (until == nil) { throw ValidationError("Say how long with --for, or until when with --until (one of them).") }
            if let duration, DurationText.seconds(duration) == nil { throw ValidationError("--for is seconds, or a number with s, m, h or d; got \(duration).") }
        }

        func run() throws {
            var params: [String: Any] = ["app": app, "identifier": identifier]
            if let duration, let seconds = DurationText.seconds(duration) { params["seconds"] = seconds }
            if let until { params["until"] = until }
            if let uid { params["uid"] = uid }
            try client.run("snooze-notification", params: params) { result in
                ["Snoozed \(identifier) of \(app) until \(Output.text((result as? [String: Any])?["snoozedUntil"]))."]
            }
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
            var params: [String: Any] = all ? ["all": true] : ["identifiers": identifiers]
            if let app { params["app"] = app }
            if let uid { params["uid"] = uid }
            try client.run("remove-notifications", params: params) { result in
                let removed = (result as? [String: Any])?["removed"] as? Int ?? 0
                return [removed == 1 ? "Removed 1 notification." : "Removed \(removed) notifications."]
            }
        }
    }
}

/// A kept notification in words: one headline, then its content and decision, indented.
enum NotificationText {
    static func lines(_ notification: Any) -> [String] {
        guard let notification = notification as? [String: Any] else { return [] }
        let state = notification["state"] as? String ?? "?"
        let when = (state == "delivered" ? notification["deliveredAt"] : notification["receivedAt"]) as? String
        var headline = "\(Output.text(notification["identifier"])) \(Output.text(notification["app"])) \(state)"
        if let when { headline += " \(when)" }
        let delivery = notification["delivery"] as? [String: Any]
        if state == "scheduled", let at = delivery?["deliverAt"] as? String { headline += ", summary at \(at)" }
        if state == "snoozed", let until = notification["snoozedUntil"] as? String { headline += ", back at \(until)" }
        let title = (notification["content"] as? [String: Any])?["title"] as? String
        return [headline] + (title.map { ["  \($0)"] } ?? [])
    }

    /// One line for a presenter event in `heraldctl watch`.
    static func brief(_ notification: Any?) -> String {
        guard let notification = notification as? [String: Any] else { return "-" }
        let presentation = (notification["delivery"] as? [String: Any])?["presentation"] as? String ?? "?"
        return "\(Output.text(notification["app"])) \(Output.text(notification["identifier"])) (\(presentation))"
    }
}
