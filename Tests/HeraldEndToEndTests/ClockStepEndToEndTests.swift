import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 49, finding 3, black-box: the wall clock stepped back between timed operations
/// (removals, undo, snoozes, the cooldown, a muted conversation, the Focus digest, the
/// summary) and across restarts loses nothing: each start takes the snapshot whole, and
/// every read answers as it did before the stop.
@Suite("Clock steps, end to end", .enabled(if: SteppedWallClock.compiler != nil, "needs a C compiler for the clock library"))
struct ClockStepEndToEndTests {
    static let chat = "org.example.chat"
    static let news = "org.example.news"

    /// A state folder kept across the daemons of the test.
    final class StateFolder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-clock-e2e-\(UUID().uuidString.prefix(8))")
        var path: String { root.appendingPathComponent("state").path }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test("Stepping the clock back around every timed feature and restarting loses no state")
    func steppedBackStateSurvivesRestarts() throws {
        let clock = try SteppedWallClock()
        let folder = StateFolder()
        func start() throws -> HeraldProcess {
            // No --discard-damaged-state: a start that refuses the snapshot fails the test.
            try HeraldProcess(
                .standalone,
                arguments: ["--state-dir", folder.path, "--log-target", "console", "--snapshot-interval", "3600"],
                environment: clock.environment
            )
        }

        var herald = try start()
        var client = try herald.connect()
        // The library works: a donation after a step back is dated before the one before it.
        let first = try client.result("donate", Self.message("m-0", conversation: "c-0"))
        try clock.step(by: -2)
        let second = try client.result("donate", Self.message("m-00", conversation: "c-0"))
        let firstDate = try #require(first[pointer: "/donatedAt"]?.stringValue)
        let secondDate = try #require(second[pointer: "/donatedAt"]?.stringValue)
        try #require(secondDate < firstDate, "the daemon's wall clock did not step: \(firstDate) then \(secondDate)")

        let operations: [(String, JSONValue)] =
            [
                ("set-cooldown", ["seconds": 120]),
                ("set-conversation", ["app": .string(Self.chat), "conversationIdentifier": "c-trip", "mute": ["seconds": 3600]]),
                ("set-summary", ["apps": [.string(Self.news)], "times": ["18:30"]]),
            ]
            + (1...6).flatMap { index in Self.post("m-\(index)", conversation: "c-\(index % 3)") }
            + Self.post("n-1", conversation: "c-news", app: Self.news) + Self.post("n-2", conversation: "c-news", app: Self.news)
            + [
                ("snooze-notification", ["app": .string(Self.chat), "identifier": "m-1", "seconds": 3600]),
                ("snooze-notification", ["app": .string(Self.chat), "identifier": "m-2", "seconds": 7200]),
                ("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-3"]]),
                ("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-4"]]),
                ("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-5"]]),
                ("restore-notifications", ["app": .string(Self.chat), "identifiers": ["m-4"]]),
                ("set-focus", ["focus": ["name": "Work", "allowedPeople": [], "allowedApps": []]]),
            ]
            // Silenced by the Focus: its digest, once it ends, and the running one after.
            + Self.post("m-7", conversation: "c-7")
            + [
                ("set-focus", ["focus": .null]),
                ("set-focus", ["name": "Work", "until": .string(Self.inAnHour())]),
            ]
            + Self.post("m-8", conversation: "c-8")
            // The summary delivered, and one more held for the next.
            + [("deliver-summary", [:])] + Self.post("n-3", conversation: "c-news", app: Self.news)
            // Responses waiting for the app, answered with the clock further back each time.
            + [("set-notification-categories", ["app": .string(Self.chat), "categories": ResponsesEndToEndTests.categories])]
            + Self.post("r-1", conversation: "c-r", category: "message") + Self.post("r-2", conversation: "c-r", category: "message")
            + [
                ("respond-to-notification", ["app": .string(Self.chat), "identifier": "r-1", "actionIdentifier": "like"]),
                ("respond-to-notification", ["app": .string(Self.chat), "identifier": "r-2", "actionIdentifier": "like"]),
            ]
        for (method, params) in operations {
            try client.result(method, params)
            try clock.step(by: -1.5)
        }
        // A snapshot in the middle, then more removals with the clock further back.
        try client.result("snapshot")
        try clock.step(by: -1.5)
        try client.result("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-6"]])
        try clock.step(by: -1.5)
        try client.result("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-7"]])
        var before = try Self.reads(client)
        #expect(before["list-removed-notifications"]?[pointer: "/notifications/2"] != nil, "three removals to keep: \(before)")
        let chatList = before["list-notifications \(Self.chat)"]?.compactText ?? ""
        #expect(chatList.components(separatedBy: #""snoozed""#).count == 3, "two snoozed: \(chatList)")
        #expect(before["get-focus-digest"]?[pointer: "/digest"] != nil, "a finished digest: \(before)")
        #expect(before["get-focus-digest"]?[pointer: "/running"] != nil, "a running digest: \(before)")
        #expect(before["get-cooldown"]?.compactText.contains("120") == true, "\(before)")
        #expect(before["list-conversations \(Self.chat)"]?.compactText.contains("c-trip") == true, "\(before)")

        for restart in 1...2 {
            #expect(herald.stop() == 0, "stop \(restart): \(herald.stderr)")
            try clock.step(by: -2)
            herald = try start()
            client = try herald.connect()
            let after = try Self.reads(client)
            for (method, answer) in before {
                #expect(
                    after[method] == answer,
                    "restart \(restart): \(method) answered \(after[method]?.compactText ?? "nothing"), before \(answer.compactText)")
            }
            let stderr = herald.stderr.lowercased()
            #expect(!stderr.contains("out of order") && !stderr.contains("damaged snapshot"), "restart \(restart): \(herald.stderr)")
            // After the restart, the clock behind every time the state holds: a removal and
            // its undo are still the newest.
            try client.result("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-8"]])
            try clock.step(by: -1.5)
            let undone = try client.result("restore-notifications", ["app": .string(Self.chat), "identifiers": ["m-8"]])
            #expect(undone[pointer: "/restored"] == 1, "\(undone.compactText)")
            before = try Self.reads(client)
        }
        herald.stop()
    }

    /// An hour from now on the test's own clock, which is ahead of the daemon's.
    static func inAnHour() -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date().addingTimeInterval(3600))
    }

    /// What the person reads back of every timed feature.
    static func reads(_ client: UnixSocketClient) throws -> [String: JSONValue] {
        let calls: [(String, JSONValue)] = [
            ("list-notifications", ["app": .string(chat)]),
            ("list-notifications", ["app": .string(news)]),
            ("list-removed-notifications", [:]),
            ("get-cooldown", [:]),
            ("list-conversations", ["app": .string(chat)]),
            ("get-focus", [:]),
            ("get-focus-digest", [:]),
            ("get-summary", [:]),
            ("get-notification-categories", ["app": .string(chat)]),
        ]
        var answers: [String: JSONValue] = [:]
        for (method, params) in calls {
            let key = params[pointer: "/app"]?.stringValue.map { "\(method) \($0)" } ?? method
            answers[key] = try client.result(method, params)
        }
        return answers
    }

    static func post(_ identifier: String, conversation: String, app: String = chat, category: String? = nil) -> [(String, JSONValue)] {
        var content: JSONObject = ["title": "Ann", "body": "Lunch?"]
        if let category { content["categoryIdentifier"] = .string(category) }
        return [
            ("donate", message(identifier, conversation: conversation, app: app)),
            (
                "update-content",
                [
                    "app": .string(app), "identifier": .string(identifier), "interactionIdentifier": .string(identifier),
                    "content": .object(content),
                ]
            ),
        ]
    }

    static func message(_ identifier: String, conversation: String, app: String = chat) -> JSONValue {
        [
            "app": .string(app),
            "interaction": [
                "identifier": .string(identifier),
                "direction": "incoming",
                "intent": [
                    "type": "sendMessage", "sender": ["displayName": "Ann"],
                    "conversationIdentifier": .string(conversation), "content": "Lunch?",
                ],
            ],
        ]
    }
}
