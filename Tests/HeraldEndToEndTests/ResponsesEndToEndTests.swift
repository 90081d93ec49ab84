import Foundation
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 14: categories, actions with icons, and responses, over the socket of the real heraldd.
@Suite("Categories, actions and responses, end to end")
struct ResponsesEndToEndTests {
    static let chat = "org.example.chat"

    /// A category with an icon on each action, a text-input action, and customDismissAction.
    static let categories: JSONValue = [
        [
            "identifier": "message",
            "actions": [
                [
                    "identifier": "reply", "title": "Reply", "icon": ["systemImageName": "mail-reply-sender"],
                    "textInput": ["buttonTitle": "Send", "placeholder": "Message"],
                ],
                ["identifier": "like", "title": "Like", "options": ["foreground"], "icon": ["templateImageName": "emblem-favorite"]],
            ],
            "options": ["customDismissAction"],
        ],
        ["identifier": "plain", "actions": [["identifier": "archive", "title": "Archive", "options": ["destructive"]]]],
    ]

    @discardableResult
    static func post(_ client: UnixSocketClient, _ identifier: String, category: String?, app: String = chat) throws -> JSONValue {
        var content: JSONObject = ["title": "Ann", "body": "Lunch?"]
        if let category { content["categoryIdentifier"] = .string(category) }
        let response = try client.call("update-content", ["app": .string(app), "identifier": .string(identifier), "content": .object(content)])
        #expect(response[pointer: "/result/identifier"] == .string(identifier), "\(response.compactText)")
        return response
    }

    static func respond(_ client: UnixSocketClient, _ identifier: String, _ action: String, text: String? = nil, uid: Int? = nil) throws -> JSONValue {
        var params: JSONObject = ["app": .string(chat), "identifier": .string(identifier), "actionIdentifier": .string(action)]
        if let text { params["userText"] = .string(text) }
        if let uid { params["uid"] = .number(JSONNumber(uid)) }
        return try client.call("respond-to-notification", .object(params))
    }

    /// Reads server notifications until one of `method` comes (skipping responses), or nil after `timeout`.
    static func next(_ method: String, from client: UnixSocketClient, timeout: Double = 20) throws -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let line = try client.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) else { return nil }
            let value = try IndependentJSON.parse(line)
            if value[pointer: "/method"]?.stringValue == method { return value[pointer: "/params"] }
        }
        return nil
    }

    static func expectError(_ response: JSONValue, _ code: Int, _ pointer: String, _ note: String) {
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(code)), "\(note): \(response.compactText)")
        #expect(response[pointer: "/error/data/pointer"] == .string(pointer), "\(note): \(response.compactText)")
        #expect(response[pointer: "/error/data/reason"]?.stringValue?.isEmpty == false, "\(note)")
    }

    @Test("A category with icons and a text-input action reaches a presenter; an unknown one says so once")
    func actionsReachAPresenter() throws {
        let herald = try HeraldProcess(.standalone)
        let app = try herald.connect()
        let presenter = try herald.connect()
        let set = try app.call("set-notification-categories", ["app": .string(Self.chat), "categories": Self.categories])
        #expect(set[pointer: "/result/categories"] == Self.categories, "\(set.compactText)")
        #expect(try app.call("get-notification-categories", ["app": .string(Self.chat)])[pointer: "/result/categories"] == Self.categories)
        #expect(try presenter.call("subscribe-notifications", [:])[pointer: "/result"] != nil)

        try Self.post(app, "m-1", category: "message")
        let delivered = try #require(try Self.next("notification-delivered", from: presenter))
        #expect(delivered[pointer: "/notification/actions"] == Self.categories[pointer: "/0/actions"])
        #expect(delivered[pointer: "/notification/actions/0/icon/systemImageName"] == "mail-reply-sender")
        #expect(delivered[pointer: "/notification/actions/0/textInput/buttonTitle"] == "Send")
        #expect(delivered[pointer: "/notification/categoryOptions"] == ["customDismissAction"])

        // APNs `category` works as categoryIdentifier does.
        let payload: JSONValue = ["aps": ["alert": ["title": "Bo", "body": "Hi"], "category": "plain", "mutable-content": 1]]
        try app.call("update-content", ["app": .string(Self.chat), "identifier": "m-2", "payload": payload])
        let fromPayload = try #require(try Self.next("notification-delivered", from: presenter))
        #expect(fromPayload[pointer: "/notification/actions/0/identifier"] == "archive")
        #expect(fromPayload[pointer: "/notification/categoryOptions"] == nil)

        // An unknown category: no actions, one reason.
        let unknown = try Self.post(app, "m-3", category: "nope")
        let reasons = unknown[pointer: "/result/delivery/reasons"]?.arrayValue ?? []
        #expect(reasons.filter { $0[pointer: "/code"] == "unknownCategory" }.count == 1, "\(unknown.compactText)")
        let plain = try #require(try Self.next("notification-delivered", from: presenter))
        #expect(plain[pointer: "/notification/actions"] == nil)

        // The list carries them too; a summary does (deliver-summary as an administrator).
        let listed = try app.call("list-notifications", ["app": .string(Self.chat)])[pointer: "/result/notifications"]?.arrayValue ?? []
        let byID = Dictionary(listed.map { ($0[pointer: "/identifier"]?.stringValue ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["m-1"]?[pointer: "/actions/1/icon/templateImageName"] == "emblem-favorite")
        #expect(byID["m-3"]?[pointer: "/actions"] == nil)
        _ = try app.call("set-summary", ["apps": [.string(Self.chat)], "times": ["03:00"]])
        try Self.post(app, "s-1", category: "message")
        _ = try app.call("deliver-summary", [:])
        let summary = try #require(try Self.next("summary-delivered", from: presenter))
        #expect(summary[pointer: "/notifications/0/actions/0/identifier"] == "reply")
    }

    @Test("Each response kind reaches a subscribed app, and removes the notification for presenters")
    func eachResponseKindReachesTheApp() throws {
        let herald = try HeraldProcess(.standalone)
        let app = try herald.connect()
        let presenter = try herald.connect()
        let responder = try herald.connect()
        _ = try app.call("set-notification-categories", ["app": .string(Self.chat), "categories": Self.categories])
        let subscribed = try app.call("subscribe-responses", ["app": .string(Self.chat)])
        #expect(subscribed[pointer: "/result"] == ["app": .string(Self.chat), "pending": 0, "dropped": 0])
        _ = try presenter.call("subscribe-notifications", [:])
        let kinds: [(String, String, String?)] = [("m-1", "reply", "On my way"), ("m-2", "like", nil), ("m-3", "default", nil), ("m-4", "dismiss", nil)]
        for (identifier, _, _) in kinds { try Self.post(responder, identifier, category: "message") }
        for (identifier, action, text) in kinds {
            let answer = try Self.respond(responder, identifier, action, text: text)
            #expect(answer[pointer: "/result/response"] == "delivered", "\(answer.compactText)")
            let heard = try #require(try Self.next("notification-response", from: app))
            #expect(heard[pointer: "/identifier"] == .string(identifier) && heard[pointer: "/actionIdentifier"] == .string(action))
            #expect(heard[pointer: "/userText"] == text.map { .string($0) })
            #expect(heard[pointer: "/notification/content/body"] == "Lunch?")
            #expect(heard[pointer: "/notification/actions/0/identifier"] == "reply")
            let removed = try #require(try Self.next("notifications-removed", from: presenter))
            #expect(removed[pointer: "/identifiers"] == [.string(identifier)])
        }
        #expect(try app.call("list-notifications", ["app": .string(Self.chat)])[pointer: "/result/notifications"] == [])
        // Answered once: a second response finds no notification.
        Self.expectError(try Self.respond(responder, "m-1", "default"), 1009, "/identifier", "answered twice")
    }

    @Test("A response waits for an app that subscribes later, across a restart")
    func aResponseWaitsAcrossARestart() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("herald-e2e-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["--state-dir", state.path]
        do {
            let herald = try HeraldProcess(.standalone, arguments: arguments)
            let client = try herald.connect()
            _ = try client.call("set-notification-categories", ["app": .string(Self.chat), "categories": Self.categories])
            try Self.post(client, "m-1", category: "message")
            try Self.post(client, "m-2", category: "message")
            #expect(try Self.respond(client, "m-1", "reply", text: "See you")[pointer: "/result/response"] == "pending")
            #expect(try Self.respond(client, "m-2", "dismiss")[pointer: "/result/response"] == "pending")
            #expect(herald.stop() == 0)
        }
        let herald = try HeraldProcess(.standalone, arguments: arguments)
        let app = try herald.connect()
        #expect(try app.call("get-notification-categories", ["app": .string(Self.chat)])[pointer: "/result/categories"] == Self.categories)
        let subscribed = try app.call("subscribe-responses", ["app": .string(Self.chat)])
        #expect(subscribed[pointer: "/result/pending"] == 2 && subscribed[pointer: "/result/dropped"] == 0, "\(subscribed.compactText)")
        let first = try #require(try Self.next("notification-response", from: app))
        let second = try #require(try Self.next("notification-response", from: app))
        #expect(first[pointer: "/identifier"] == "m-1" && first[pointer: "/userText"] == "See you")
        #expect(second[pointer: "/identifier"] == "m-2" && second[pointer: "/actionIdentifier"] == "dismiss")
        // Delivered once: the next subscription has none waiting.
        #expect(try herald.connect().call("subscribe-responses", ["app": .string(Self.chat)])[pointer: "/result/pending"] == 0)
    }

    @Test("Every error: categories that break the rules, and responses that do")
    func everyError() throws {
        let herald = try HeraldProcess(.standalone)
        let client = try herald.connect()
        func set(_ categories: JSONValue, app: String = Self.chat) throws -> JSONValue {
            try client.call("set-notification-categories", ["app": .string(app), "categories": categories])
        }
        let action: JSONValue = ["identifier": "a", "title": "A"]
        Self.expectError(try set([["identifier": "c", "actions": []], ["identifier": "c", "actions": []]]), -32602, "/categories/1/identifier", "duplicate category")
        Self.expectError(try set([["identifier": "c", "actions": [action, action]]]), -32602, "/categories/0/actions/1/identifier", "duplicate action")
        Self.expectError(try set([["identifier": "c", "actions": [["identifier": "default", "title": "Open"]]]]), -32602, "/categories/0/actions/0/identifier", "default")
        Self.expectError(try set([["identifier": "c", "actions": [["identifier": "dismiss", "title": "Go"]]]]), -32602, "/categories/0/actions/0/identifier", "dismiss")
        let many = JSONValue.array((0..<101).map { .object(["identifier": .string("c\($0)"), "actions": []]) })
        let tooMany = try set(many)
        Self.expectError(tooMany, -32602, "/categories", "101 categories")
        #expect(tooMany[pointer: "/error/data/limit"] == 100)
        let eleven = JSONValue.array((0..<11).map { .object(["identifier": .string("a\($0)"), "title": "A"]) })
        let tooManyActions = try set([["identifier": "c", "actions": eleven]])
        Self.expectError(tooManyActions, -32602, "/categories/0/actions", "11 actions")
        #expect(tooManyActions[pointer: "/error/data/limit"] == 10)
        Self.expectError(try set([["identifier": "c", "actions": [], "colour": "red"]]), -32602, "/categories/0/colour", "unknown member")
        Self.expectError(try set([["identifier": "c", "actions": [["identifier": "a", "title": "A", "icon": [:]]]]]), -32602, "/categories/0/actions/0/icon", "empty icon")
        Self.expectError(try set([["identifier": "c", "actions": [], "options": ["loud"]]]), -32602, "/categories/0/options/0", "unknown option")
        Self.expectError(try set([], app: "not an app"), -32602, "/app", "app")
        #expect(try client.call("get-notification-categories", ["app": .string(Self.chat)])[pointer: "/result/categories"] == [])

        _ = try set(Self.categories)
        try Self.post(client, "m-1", category: "message")
        try Self.post(client, "p-1", category: "plain")
        Self.expectError(try Self.respond(client, "never", "default"), 1009, "/identifier", "not found")
        Self.expectError(try Self.respond(client, "m-1", "archive"), -32602, "/actionIdentifier", "another category's action")
        Self.expectError(try Self.respond(client, "p-1", "dismiss"), -32602, "/actionIdentifier", "dismiss without customDismissAction")
        Self.expectError(try Self.respond(client, "m-1", "reply"), -32602, "/userText", "text input without userText")
        Self.expectError(try Self.respond(client, "m-1", "like", text: "hi"), -32602, "/userText", "userText on a plain action")
        Self.expectError(try client.call("respond-to-notification", ["app": .string(Self.chat), "identifier": "m-1"]), -32602, "/actionIdentifier", "missing")
        Self.expectError(try client.call("subscribe-responses", ["app": "bad app"]), -32602, "/app", "subscribe app")
        // Nothing was answered: both notifications are still listed.
        #expect(try client.call("list-notifications", ["app": .string(Self.chat)])[pointer: "/result/notifications"]?.arrayValue?.count == 2)
    }
}

/// Another uid can neither answer a notification nor hear its response (root runs these, acting as nobody).
@Suite("Responses across uids, end to end", .enabled(if: getuid() == 0, "needs root to connect as another uid"))
struct ResponsesAcrossUIDsEndToEndTests {
    /// Sends `lines` as uid/gid 65534 (nobody) through socat; the lines heraldd wrote back within a second.
    private func asNobody(_ lines: [JSONValue], socket: String) throws -> [JSONValue] {
        let input = lines.map(\.compactText).joined(separator: "\n") + "\n"
        let output = try runCapturingOutput(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "1", "-", "UNIX-CONNECT:\(socket)"],
            input: input
        )
        return try output.split(separator: "\n").map { try IndependentJSON.parse(String($0)) }
    }

    @Test("Another uid gets 1009 answering, 1006 naming the uid, and never hears the response")
    func anotherUIDCannotAnswerOrSee() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let owner = try herald.connect()
        let chat = ResponsesEndToEndTests.chat
        _ = try owner.call("set-notification-categories", ["app": .string(chat), "categories": ResponsesEndToEndTests.categories])
        try ResponsesEndToEndTests.post(owner, "m-1", category: "message")
        try ResponsesEndToEndTests.post(owner, "m-2", category: "message")
        let ownerUID = Int(getuid())
        let answers = try asNobody(
            [
                ["jsonrpc": "2.0", "id": 1, "method": "respond-to-notification", "params": ["app": .string(chat), "identifier": "m-1", "actionIdentifier": "default"]],
                [
                    "jsonrpc": "2.0", "id": 2, "method": "respond-to-notification",
                    "params": ["app": .string(chat), "identifier": "m-1", "actionIdentifier": "default", "uid": .number(JSONNumber(ownerUID))],
                ],
            ],
            socket: herald.socketPath
        )
        #expect(answers.count == 2)
        #expect(answers.first { $0[pointer: "/id"] == 1 }?[pointer: "/error/code"] == 1009)
        #expect(answers.first { $0[pointer: "/id"] == 2 }?[pointer: "/error/code"] == 1006)
        #expect(answers.first { $0[pointer: "/id"] == 2 }?[pointer: "/error/data/pointer"] == "/uid")

        // The owner's response waits for the owner's app; nobody subscribing to the same app name hears nothing.
        #expect(try ResponsesEndToEndTests.respond(owner, "m-1", "like")[pointer: "/result/response"] == "pending")
        let nobody = try asNobody(
            [["jsonrpc": "2.0", "id": 1, "method": "subscribe-responses", "params": ["app": .string(chat)]]], socket: herald.socketPath
        )
        #expect(nobody.count == 1 && nobody.first?[pointer: "/result/pending"] == 0, "\(nobody.map(\.compactText))")
        #expect(!nobody.contains { $0[pointer: "/method"] == "notification-response" })
        let app = try herald.connect()
        #expect(try app.call("subscribe-responses", ["app": .string(chat)])[pointer: "/result/pending"] == 1)
        #expect(try ResponsesEndToEndTests.next("notification-response", from: app)?[pointer: "/identifier"] == "m-1")
        // The notification nobody tried to answer is still the owner's.
        #expect(try owner.call("list-notifications", ["app": .string(chat)])[pointer: "/result/notifications/0/identifier"] == "m-2")
    }
}

/// A response is one journal entry of its own — whose, which app, notification and action,
/// whether it reached the app — and what the person typed is never in the journal.
@Suite("Responses in the journal, end to end", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
struct ResponseJournalEndToEndTests {
    @Test("A response is an entry with its ids and where it went, never the text typed")
    func responseEntry() throws {
        let herald = try HeraldProcess(arguments: ["--log-target", "journal"])
        let journal = JournalReader(pid: herald.process.pid)
        let client = try herald.connect()
        let app = ResponsesEndToEndTests.chat
        _ = try client.call("set-notification-categories", ["app": .string(app), "categories": ResponsesEndToEndTests.categories])
        try ResponsesEndToEndTests.post(client, "m-typed", category: "message")
        try ResponsesEndToEndTests.post(client, "m-opened", category: "message")
        let secret = "meet me at the old mill 4471"
        let typed = try ResponsesEndToEndTests.respond(client, "m-typed", "reply", text: secret)
        #expect(typed[pointer: "/result/response"] == "pending", "\(typed.compactText)")
        let subscriber = try herald.connect()
        _ = try subscriber.call("subscribe-responses", ["app": .string(app)])
        #expect(try ResponsesEndToEndTests.next("notification-response", from: subscriber)?[pointer: "/userText"] == .string(secret))
        let opened = try ResponsesEndToEndTests.respond(client, "m-opened", "default")
        #expect(opened[pointer: "/result/response"] == "delivered", "\(opened.compactText)")

        let entries = try journal.waitForEntries(count: 2, matching: ["MESSAGE_ID=\(JournalMessageID.notificationResponse)"])
        let reply = try #require(entries.first { $0.field("HERALD_NOTIFICATION_ID") == "m-typed" })
        #expect(reply.field("HERALD_UID") == String(getuid()) && reply.field("HERALD_APP") == app)
        #expect(reply.field("HERALD_ACTION_ID") == "reply" && reply.field("HERALD_RESPONSE") == "pending")
        let open = try #require(entries.first { $0.field("HERALD_NOTIFICATION_ID") == "m-opened" })
        #expect(open.field("HERALD_ACTION_ID") == "default" && open.field("HERALD_RESPONSE") == "delivered")
        // Every entry heraldd wrote, every field: the typed text is in none of them.
        let everything = try journal.entries().raw
        #expect(everything.contains("m-typed"))
        #expect(!everything.contains("old mill"), "the text a person typed reached the journal")
    }
}
