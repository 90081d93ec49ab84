import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 28: what a person — not an administrator — sees of their own: their
/// notifications across their apps, the apps that notified them, their summary delivered
/// early; and never another uid's.
@Suite("A person's own views, end to end")
struct PersonViewsEndToEndTests {
    static let person = 65534
    static let other = 65533

    private static func notify(_ app: String, _ identifier: String) -> JSONValue {
        request("update-content", ["app": .string(app), "identifier": .string(identifier), "content": ["title": .string(identifier)]])
    }

    @Test("As an ordinary uid: every app's notifications without naming one, and its own summary delivered")
    func anOrdinaryUidSeesItsOwn() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none"])
        _ = try callAsUser(Self.other, [Self.notify("org.example.chat", "theirs")], socket: herald.socketPath)
        let answers = try callAsUser(
            Self.person,
            [
                request("set-summary", ["apps": ["org.example.news"], "times": ["08:00"]]),
                Self.notify("org.example.news", "story"),
                Self.notify("org.example.chat", "hello"),
                request("list-notifications", [:]),
                request("list-notifications", ["uid": .number(JSONNumber(Self.other))]),
                request("deliver-summary", [:]),
                request("deliver-summary", ["uid": .number(JSONNumber(Self.other))]),
                request("list-notifications", ["state": "scheduled"]),
            ],
            socket: herald.socketPath
        )
        try #require(answers.count == 8, "\(answers.map(\.compactText))")
        #expect(answers[1][pointer: "/result/delivery/presentation"] == "summary")
        let listed = answers[3][pointer: "/result/notifications"]?.arrayValue ?? []
        #expect(listed.compactMap { $0[pointer: "/identifier"]?.stringValue } == ["hello", "story"], "\(answers[3].compactText)")
        #expect(describeError(answers[4]) == "1006 /uid")
        #expect(answers[5][pointer: "/result/delivered"] == 1, "\(answers[5].compactText)")
        #expect(describeError(answers[6]) == "1006 /uid")
        #expect(answers[7][pointer: "/result/notifications"] == [])
    }

    @Test("heraldctl notifications apps: the apps that notified you, newest first, with their counts")
    func theAppsThatNotifiedYou() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        for (app, identifier) in [("org.example.chat", "c-1"), ("org.example.news", "n-1"), ("org.example.chat", "c-2")] {
            try client.result("update-content", ["app": .string(app), "identifier": .string(identifier), "content": ["title": "Hi"]])
        }
        let human = try Heraldctl.run(["notifications", "apps", "--socket", herald.socketPath])
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("org.example.chat  2 notifications, newest "), "\(human)")
        #expect(lines.count == 2 && lines[1].hasPrefix("org.example.news  1 notification, newest "), "\(human)")
        let json = try Heraldctl.run(["notifications", "apps", "--json", "--socket", herald.socketPath])
        let apps = (json.jsonLines.first as? [String: Any])?["apps"] as? [[String: Any]] ?? []
        #expect(apps.compactMap { $0["app"] as? String } == ["org.example.chat", "org.example.news"], "\(json)")
        #expect(apps.compactMap { $0["notifications"] as? Int } == [2, 1], "\(json)")
    }
}
