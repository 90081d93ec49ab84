import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldClient
import HeraldProtocol

/// `heraldctl notifications list|search|apps|snooze|remove|undo|restore`: the notification
/// list (`list-notifications`, `search-notifications`, `snooze-notification`,
/// `remove-notifications`, `restore-notifications`). A caller sees its own uid's list, every app's or one's; an
/// administrator may name a `--uid`.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List, search, snooze, remove or restore the notifications heraldd keeps, delivered and scheduled.",
        subcommands: [List.self, Search.self, Apps.self, Snooze.self, Remove.self, Undo.self, Restore.self],
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
        @Flag(help: "Those you removed that can still be restored (list-removed-notifications), most recently removed first.")
        var removed = false

        func validate() throws {
            if removed, state != nil { throw ValidationError("--removed lists removed notifications: leave --state out.") }
        }

        func run() throws {
            if removed { return try Self.listRemoved(app: app, limit: limit, uid: uid, client: client) }
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

        /// Every page of `list-notifications` (or `method`, which pages alike; each within
        /// heraldd's `--max-response-bytes`, at most `maxPage`), following `nextCursor`,
        /// until the list or `limit` ends; the items are the result's `member`.
        static func allPages(
            of params: [String: JSONValue], limit: Int?, method: String = "list-notifications", member: String = "notifications",
            maxPage: Int = .max, connection: HeraldClient
        ) throws(CtlFailure) -> [JSONValue] {
            var notifications: [JSONValue] = []
            var cursor: String?
            repeat {
                var page = params
                if let cursor { page["cursor"] = cursor.json }
                if let limit { page["limit"] = min(limit - notifications.count, maxPage).json }
                let result = try connection.call(method, params: page)
                notifications += result[member]?.arrayValue ?? []
                cursor = result["nextCursor"]?.stringValue
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
        @Option(help: "Only those received at or after this time: how long ago (1h, 30m, 2d) or RFC 3339 (2026-11-27T08:00:00Z).") var since: String?
        @Option(help: "Only those received at or before this time: how long ago or RFC 3339.") var until: String?
        @Option(help: "At most this many, the newest (default: 50).") var limit: Int = 50
        @Option(help: "The uid whose notifications they are (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The words to look for.") var words: [String] = []

        func validate() throws {
            if words.isEmpty { throw ValidationError("Name a word to look for.") }
            if limit < 0 { throw ValidationError("--limit is how many at most, 0 or more.") }
            if let since, PastTime.date(since) == nil { throw PastTime.refusal("--since", since) }
            if let until, PastTime.date(until) == nil { throw PastTime.refusal("--until", until) }
        }

        func run() throws {
            var params: [String: JSONValue] = ["query": words.joined(separator: " ").json]
            if let app { params["app"] = app.json }
            if let state { params["state"] = state.rawValue.json }
            let now = Date()
            if let since = since.flatMap({ PastTime.date($0, now: now) }) { params["since"] = RFC3339.format(since).json }
            if let until = until.flatMap({ PastTime.date($0, now: now) }) { params["until"] = RFC3339.format(until).json }
            if let uid { params["uid"] = uid.json }
            let notifications = try List.allPages(
                of: params, limit: limit, method: "search-notifications", maxPage: 500, connection: client.connect())
            if client.json {
                Output.printJSON(["notifications": notifications.json])
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
            var params: [String: JSONValue] = ["app": app.json, "identifier": identifier.json]
            if let duration, let seconds = DurationText.seconds(duration) { params["seconds"] = .number(JSONNumber(seconds)) }
            if let until { params["until"] = until.json }
            if let uid { params["uid"] = uid.json }
            let flags = ["/app": "APP", "/identifier": "IDENTIFIER", "/seconds": "--for", "/until": "--until", "/uid": "--uid"]
            try client.run("snooze-notification", params: params, flags: flags) { result in
                ["Snoozed \(identifier) of \(app) until \(Output.text(result["snoozedUntil"]))."]
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove notifications by identifier, or all of an app's, or all of every app's.",
            discussion: "heraldctl notifications remove --all removes every app's; undo brings them all back, within heraldd's --undo-window."
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "The app (needed with identifiers; left out with --all: every app).") var app: String?
        @Flag(help: "Remove every notification of the app, or of every app without --app.") var all = false
        @Option(help: "The uid whose list it is (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The identifiers of the notifications to remove.") var identifiers: [String] = []

        func validate() throws {
            if all == !identifiers.isEmpty { throw ValidationError("Name the identifiers to remove, or pass --all (not both).") }
            if !all, app == nil { throw ValidationError("Name the app whose notifications these are with --app (or pass --all for every app's).") }
        }

        func run() throws {
            var params: [String: JSONValue] = all ? ["all": true] : ["identifiers": identifiers.json]
            if let app { params["app"] = app.json }
            if let uid { params["uid"] = uid.json }
            try client.run("remove-notifications", params: params, flags: ["/app": "--app", "/identifiers": "IDENTIFIER", "/uid": "--uid"]) { result in
                let removed = result["removed"]?.intValue ?? 0
                return [removed == 1 ? "Removed 1 notification." : "Removed \(removed) notifications."]
            }
        }
    }
}

/// A kept notification in words: one headline, then its content, indented.
enum NotificationText {
    /// The most characters of a body line shown.
    static let maxBodyCharacters = 160

    /// The headline — identifier, app, state and `receivedAt`, the time the list is sorted
    /// by — then the title, who sent it in which conversation, and the body's first line:
    /// what a search found it by, most of the time.
    static func lines(_ notification: JSONValue) -> [String] {
        guard notification.objectValue != nil else { return [] }
        let state = notification["state"]?.stringValue ?? "?"
        var headline = "\(Output.text(notification["identifier"])) \(Output.text(notification["app"])) \(state)"
        if let received = notification["receivedAt"]?.stringValue { headline += " \(received)" }
        let delivery = notification["delivery"]
        if state == "delivered", let delivered = notification["deliveredAt"]?.stringValue, delivered != notification["receivedAt"]?.stringValue {
            headline += ", delivered \(delivered)"
        }
        if state == "scheduled", let at = delivery?["deliverAt"]?.stringValue { headline += ", summary at \(at)" }
        if state == "snoozed", let until = notification["snoozedUntil"]?.stringValue { headline += ", back at \(until)" }
        let content = notification["content"]
        var lines = [headline]
        if let title = content["title"]?.stringValue { lines.append("  \(title)") }
        let communication = content["communication"]
        let sender = communication["sender"]["displayName"]?.stringValue ?? communication["sender"]["handle"]["value"]?.stringValue
        let conversation = communication["conversationIdentifier"]?.stringValue
        switch (sender, conversation) {
        case (let sender?, let conversation?): lines.append("  from \(sender), conversation \(conversation)")
        case (let sender?, nil): lines.append("  from \(sender)")
        case (nil, let conversation?): lines.append("  conversation \(conversation)")
        case (nil, nil): break
        }
        if let body = content["body"]?.stringValue?.split(whereSeparator: \.isNewline).first {
            lines.append("  " + (body.count > maxBodyCharacters ? String(body.prefix(maxBodyCharacters)) + "…" : String(body)))
        }
        return lines
    }

    /// One line for a presenter event in `heraldctl watch`.
    static func brief(_ notification: JSONValue?) -> String {
        guard let notification, notification.objectValue != nil else { return "-" }
        let presentation = notification["delivery"]["presentation"]?.stringValue ?? "?"
        return "\(Output.text(notification["app"])) \(Output.text(notification["identifier"])) (\(presentation))"
    }
}
