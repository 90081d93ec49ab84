import ArgumentParser
import Foundation

/// `heraldctl watch`: subscribes and prints each server notification as one line, until
/// interrupted (SIGINT and SIGTERM exit 0).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print heraldd's notifications (today: Focus changes) as they happen, until interrupted."
    )

    @OptionGroup var client: ClientOptions
    @Option(help: "Watch this app's Focus status (repeat for several).") var app: [String]

    func validate() throws {
        if app.isEmpty { throw ValidationError("Name at least one --app to watch.") }
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
        for app in app {
            let result = try connection.call("request-focus", params: ["app": app, "subscribe": true], notification: show)
            if client.json {
                // The starting point: request-focus's result; the notifications that follow have a "method".
                Output.printJSON(result)
            } else {
                let status = (result as? [String: Any])?["focusStatus"]
                Output.print(["\(Self.time()) watching \(app): \(FocusStatusText.words(status))"])
            }
        }
        while true {
            show(try connection.readMessage())
        }
    }

    private func show(_ message: [String: Any]) {
        if client.json {
            Output.printJSON(message)
        } else {
            let method = message["method"] as? String ?? "?"
            Output.print(["\(Self.time()) \(WatchEvent.line(method: method, params: message["params"] as? [String: Any] ?? [:]))"])
        }
    }

    static func time() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}

/// One server notification in words: one case per kind.
enum WatchEvent {
    static func line(method: String, params: [String: Any]) -> String {
        switch method {
        case "focus-changed":
            return "focus-changed \(Output.text(params["app"])): \(FocusStatusText.words(params["focusStatus"]))"
        default:
            return "\(method) \(Output.jsonText(params))"
        }
    }
}
