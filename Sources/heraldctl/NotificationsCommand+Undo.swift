import ArgumentParser
import HeraldProtocol

/// `heraldctl notifications undo|restore` and `list --removed`: bring back what the person
/// removed, within heraldd's `--undo-window` (`restore-notifications`,
/// `list-removed-notifications`).
extension NotificationsCommand {
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore the notifications your last remove took away, if still within heraldd's --undo-window.")
        @OptionGroup var client: ClientOptions
        @Option(help: "The uid whose removal to undo (administrators; default: yours).") var uid: UInt32?

        func run() throws {
            var params: [String: JSONValue] = [:]
            if let uid { params["uid"] = uid.json }
            try client.run("restore-notifications", params: params) { result in Restore.sentence(result) }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore removed notifications of an app by identifier (see list --removed).")
        @OptionGroup var client: ClientOptions
        @Option(help: "The uid whose notifications to restore (administrators; default: yours).") var uid: UInt32?
        @Argument(help: "The app whose notifications they are.") var app: String
        @Argument(help: "The identifiers of the notifications to restore.") var identifiers: [String]

        func validate() throws {
            if identifiers.isEmpty { throw ValidationError("Name the identifiers to restore; `notifications undo` restores the last removal.") }
        }

        func run() throws {
            var params: [String: JSONValue] = ["app": app.json, "identifiers": identifiers.json]
            if let uid { params["uid"] = uid.json }
            try client.run("restore-notifications", params: params, flags: ["/app": "APP", "/identifiers": "IDENTIFIERS", "/uid": "--uid"]) { result in
                Self.sentence(result)
            }
        }

        static func sentence(_ result: JSONValue) -> [String] {
            switch result["restored"]?.intValue ?? 0 {
            case 0: ["Nothing to restore: nothing you removed is within heraldd's --undo-window (list --removed shows what is)."]
            case 1: ["Restored 1 notification."]
            case let count: ["Restored \(count) notifications."]
            }
        }
    }
}

extension NotificationsCommand.List {
    /// `list --removed`: one page of `list-removed-notifications`, most recently removed first.
    static func listRemoved(app: String?, limit: Int?, uid: UInt32?, client: ClientOptions) throws {
        var params: [String: JSONValue] = [:]
        if let app { params["app"] = app.json }
        if let limit { params["limit"] = limit.json }
        if let uid { params["uid"] = uid.json }
        try client.run("list-removed-notifications", params: params) { result in
            let removed = result["notifications"]?.arrayValue ?? []
            guard !removed.isEmpty else { return ["No removed notifications to restore."] }
            var lines = removed.flatMap { entry in
                var lines = NotificationText.lines(entry["notification"] ?? .null)
                let removedAt = Output.text(entry["removedAt"])
                let until = Output.text(entry["restorableUntil"])
                lines.insert("  removed \(removedAt), restorable until \(until)", at: min(1, lines.count))
                return lines
            }
            if result["more"]?.boolValue == true { lines.append("(more left out: pass --app or --limit)") }
            return lines
        }
    }
}
