import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 12: the notification list, the scheduled summary and presenters, over the socket
/// of the real heraldd (in UTC, so that summary times are read as the test writes them).
@Suite("Notification list and summary, end to end")
struct NotificationListEndToEndTests {
    static let news = "org.example.news"
    static let chat = "org.example.chat"

    static func update(_ app: String, _ identifier: String, title: String, score: Double? = nil, attachments: Bool = false) -> JSONValue {
        var content: JSONObject = ["title": .string(title)]
        if let score { content["relevanceScore"] = .number(JSONNumber(score)) }
        if attachments { content["attachments"] = [["url": "file:///tmp/a.png"]] }
        return ["app": .string(app), "identifier": .string(identifier), "content": .object(content)]
    }

    /// The identifiers of a list of notifications, in order.
    static func identifiers(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap { $0[pointer: "/identifier"]?.stringValue }
    }

    static func list(_ client: UnixSocketClient, _ params: JSONValue) throws -> [JSONValue] {
        let response = try client.call("list-notifications", params)
        #expect(response[pointer: "/result/notifications"] != nil, "\(response.compactText)")
        return response[pointer: "/result/notifications"]?.arrayValue ?? []
    }

    /// "HH:MM:SS" in UTC, `seconds` from now.
    static func clockTime(in seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date().addingTimeInterval(seconds))
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

    @Test("A connection's responses keep their order around a listing, and another connection is served while one is pending")
    func listingKeepsTheConnectionsOrder() throws {
        let herald = try HeraldProcess(.standalone)
        let client = try herald.connect()
        let batch = (0..<500).map { index in
            "{\"jsonrpc\":\"2.0\",\"id\":\(index),\"method\":\"update-content\",\"params\":{\"app\":\"\(Self.news)\",\"identifier\":\"n\(index)\",\"content\":{\"title\":\"Story \(index)\"}}}"
        }
        try client.send("[" + batch.joined(separator: ",") + "]\n")
        #expect(try client.readJSON()?.arrayValue?.count == 500)

        // One write: a listing, a change, a listing, a change; each answered in turn, the
        // second listing seeing the change the first did not.
        let list = "{\"jsonrpc\":\"2.0\",\"id\":%ID%,\"method\":\"list-notifications\",\"params\":{\"app\":\"\(Self.news)\"}}"
        let update = "{\"jsonrpc\":\"2.0\",\"id\":%ID%,\"method\":\"update-content\",\"params\":{\"app\":\"\(Self.news)\",\"identifier\":\"late-%ID%\",\"content\":{\"title\":\"Late\"}}}"
        let lines = [list, update, list, update].enumerated().map { $1.replacingOccurrences(of: "%ID%", with: "\($0 + 1)") }
        try client.send(lines.joined(separator: "\n") + "\n")
        var responses: [JSONValue] = []
        for _ in 0..<4 {
            guard let line = try client.readLine() else { break }
            responses.append(try IndependentJSON.parse(line))
        }
        #expect(responses.map { $0[pointer: "/id"] } == [1, 2, 3, 4])
        #expect(responses.first?[pointer: "/result/notifications"]?.arrayValue?.count == 500)
        let second = responses.count > 2 ? Self.identifiers(responses[2][pointer: "/result/notifications"]) : []
        #expect(second.count == 501 && second.first == "late-2")

        // Another connection is served while this one lists.
        let other = try herald.connect()
        try client.send(list.replacingOccurrences(of: "%ID%", with: "5") + "\n")
        #expect(try other.call("request-focus", ["app": .string(Self.chat)])[pointer: "/result"] != nil)
        #expect(try client.readJSON()?[pointer: "/result/notifications"]?.arrayValue?.count == 502)
    }

    @Test("Replacement, ranking, deliver-summary and a presenter seeing each event")
    func replacementRankingAndPresenter() throws {
        let herald = try HeraldProcess(.standalone, environment: ["TZ": "UTC"])
        let client = try herald.connect()
        let presenter = try herald.connect()
        #expect(try presenter.call("subscribe-notifications", [:])[pointer: "/result"] == .object([:]))
        _ = try client.call("set-summary", ["apps": [.string(Self.news)], "times": [.string(Self.clockTime(in: 6 * 3600))]])

        // Held for the summary: ranked by score, then media, then newest.
        try client.call("update-content", Self.update(Self.news, "plain-old", title: "a"))
        try client.call("update-content", Self.update(Self.news, "plain-new", title: "b"))
        try client.call("update-content", Self.update(Self.news, "media", title: "c", attachments: true))
        try client.call("update-content", Self.update(Self.news, "scored", title: "d", score: 0.9))
        let scheduled = try Self.list(client, ["app": .string(Self.news), "state": "scheduled"])
        #expect(Self.identifiers(.array(scheduled)) == ["scored", "media", "plain-new", "plain-old"])

        // An alert, then the same identifier again: replaced in place, and told to the presenter each time.
        let first = try client.call("update-content", Self.update(Self.chat, "m-1", title: "first"))
        #expect(first[pointer: "/result/identifier"] == "m-1")
        let generated = try client.call("update-content", ["app": .string(Self.chat), "content": ["title": "no identifier"]])
        let uuid = generated[pointer: "/result/identifier"]?.stringValue ?? ""
        #expect(UUID(uuidString: uuid) != nil && uuid == uuid.lowercased())
        try client.call("update-content", Self.update(Self.chat, "m-1", title: "second"))
        let chat = try Self.list(client, ["app": .string(Self.chat)])
        #expect(Self.identifiers(.array(chat)) == [uuid, "m-1"], "m-1 keeps its place")
        #expect(chat.last?[pointer: "/content/title"] == "second")
        #expect(try Self.next("notification-delivered", from: presenter)?[pointer: "/notification/content/title"] == "first")
        #expect(try Self.next("notification-delivered", from: presenter)?[pointer: "/notification/identifier"] == .string(uuid))
        #expect(try Self.next("notification-delivered", from: presenter)?[pointer: "/notification/content/title"] == "second")

        let delivered = try client.call("deliver-summary", [:])
        #expect(delivered[pointer: "/result/delivered"] == 4)
        let summary = try Self.next("summary-delivered", from: presenter)
        #expect(Self.identifiers(summary?[pointer: "/notifications"]) == ["scored", "media", "plain-new", "plain-old"])
        #expect(summary?[pointer: "/uid"] == .number(JSONNumber(Int(getuid()))))
        #expect(try Self.list(client, ["app": .string(Self.news), "state": "scheduled"]).isEmpty)
        #expect(try Self.list(client, ["app": .string(Self.news), "state": "delivered"]).count == 4)

        let removed = try client.call("remove-notifications", ["app": .string(Self.chat), "identifiers": ["m-1", "m-404"]])
        #expect(removed[pointer: "/result/removed"] == 1)
        let event = try Self.next("notifications-removed", from: presenter)
        #expect(event?[pointer: "/app"] == .string(Self.chat) && event?[pointer: "/identifiers"] == ["m-1"])
        let stats = try client.call("stats")
        #expect(stats[pointer: "/result/notifications"] == 5)
    }

    @Test("A presenter that stops reading is closed past --max-unread-bytes, with the reason logged")
    func aPresenterThatDoesNotRead() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--max-unread-bytes", "1024", "--log-target", "console"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        let body = String(repeating: "x", count: 15_000)
        // It is closed once it has read nothing for the stall limit (2 s) while events came.
        var closed: String?
        let deadline = Date().addingTimeInterval(30)
        var index = 0
        while closed != "1", Date() < deadline {
            let params: JSONValue = ["app": .string(Self.chat), "identifier": .string("f-\(index % 200)"), "content": ["body": .string(body)]]
            #expect(try client.call("update-content", params)[pointer: "/result"] != nil)
            closed = try client.call("stats")[pointer: "/result/connections/closedUnread"]?.numberValue?.description
            index += 1
            if index > 200 { usleep(50_000) }
        }
        #expect(closed == "1", "the presenter was closed once")
        #expect(herald.stderr.contains("closing a notification presenter that does not read"))
    }

    @Test("A summary at a real time a few seconds ahead (HH:MM:SS) delivers what it held")
    func summaryAtARealTime() throws {
        let herald = try HeraldProcess(.standalone, environment: ["TZ": "UTC"])
        let client = try herald.connect()
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let time = Self.clockTime(in: 4)
        let set = try client.call("set-summary", ["apps": [.string(Self.news)], "times": [.string(time)]])
        // heraldd writes a time of whole minutes as HH:MM.
        let written = time.hasSuffix(":00") ? String(time.dropLast(3)) : time
        #expect(set[pointer: "/result/times"] == [.string(written)])
        let held = try client.call("update-content", Self.update(Self.news, "s-1", title: "held"))
        #expect(held[pointer: "/result/delivery/presentation"] == "summary")
        let summary = try Self.next("summary-delivered", from: presenter, timeout: 20)
        #expect(Self.identifiers(summary?[pointer: "/notifications"]) == ["s-1"])
        let listed = try Self.list(client, ["app": .string(Self.news)])
        #expect(listed.first?[pointer: "/state"] == "delivered")
        #expect(listed.first?[pointer: "/deliveredAt"] == summary?[pointer: "/deliveredAt"])
    }

    @Test("A summary time passed while stopped is delivered once at the next start, before serving")
    func catchUpAfterAStop() throws {
        let folder = SnapshotEndToEndTests.StateFolder()
        var herald = try folder.start()
        _ = herald  // kept alive until replaced
        let client = try herald.connect()
        _ = try client.call("set-summary", ["apps": [.string(Self.news)], "times": [.string(Self.clockTime(in: 5))]])
        try client.call("update-content", Self.update(Self.news, "c-1", title: "secret-title"))
        #expect(herald.stop(signal: SIGTERM) == 0)
        #expect(herald.stderr.contains("herald_notification_id=c-1"), "update-content's entry names the notification")
        sleep(7)  // through the summary time
        herald = try folder.start()
        let listed = try Self.list(try herald.connect(), ["app": .string(Self.news)])
        #expect(listed.first?[pointer: "/state"] == "delivered", "\(listed)")
        sleep(2)
        let entries = herald.stderr.components(separatedBy: "summary delivered to uid").count - 1
        #expect(entries == 1, "one summary at start, none after")
        #expect(herald.stderr.contains("herald_notification_ids=c-1"))
        #expect(!herald.stderr.contains("secret-title"), "no content in the journal")
    }

    @Test("The list survives SIGTERM, and kill -9 after a snapshot interval")
    func persistence() throws {
        let folder = SnapshotEndToEndTests.StateFolder()
        var herald = try folder.start(["--snapshot-interval", "1"])
        _ = try herald.connect().call("set-summary", ["apps": [.string(Self.news)], "times": [.string(Self.clockTime(in: 6 * 3600))]])
        let client = try herald.connect()
        try client.call("update-content", Self.update(Self.chat, "p-1", title: "delivered"))
        try client.call("update-content", Self.update(Self.news, "p-2", title: "scheduled"))
        let before = try Self.list(client, ["app": .string(Self.chat)]) + Self.list(client, ["app": .string(Self.news)])
        #expect(herald.stop(signal: SIGTERM) == 0)
        herald = try folder.start(["--snapshot-interval", "1"])
        let client2 = try herald.connect()
        let afterTerm = try Self.list(client2, ["app": .string(Self.chat)]) + Self.list(client2, ["app": .string(Self.news)])
        #expect(afterTerm == before)
        try client2.call("update-content", Self.update(Self.chat, "p-3", title: "after restart"))
        sleep(3)  // past --snapshot-interval: the crash window
        herald.stop(signal: SIGKILL)
        herald = try folder.start(["--snapshot-interval", "1"])
        let afterKill = try Self.list(try herald.connect(), ["app": .string(Self.chat)])
        #expect(Self.identifiers(.array(afterKill)) == ["p-3", "p-1"])
        #expect(try Self.list(try herald.connect(), ["app": .string(Self.news)]).first?[pointer: "/state"] == "scheduled")
    }
}

/// Two uids, one of them unprivileged (nobody, through setpriv): each sees its own list only.
@Suite("Notification lists of two uids, end to end", .enabled(if: getuid() == 0, "needs root to connect as another uid"))
struct NotificationNamespaceEndToEndTests {
    /// Sends each request (one per line) as uid 65534 on one connection; the responses and
    /// notifications, each parsed.
    private func callAsNobody(_ requests: [String], socket: String, wait: Double = 3) throws -> [JSONValue] {
        let output = try runCapturingOutput(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", String(wait), "-", "UNIX-CONNECT:\(socket)"],
            input: requests.joined(separator: "\n") + "\n"
        )
        return try output.split(separator: "\n").map { try IndependentJSON.parse(String($0)) }
    }

    private func response(_ id: Int, in lines: [JSONValue]) -> JSONValue? {
        lines.first { $0[pointer: "/id"] == .number(JSONNumber(id)) }
    }

    @Test("Listing, removal and presenting across two uids")
    func twoUIDs() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let root = try herald.connect()
        try root.call("update-content", NotificationListEndToEndTests.update("org.example.chat", "shared-id", title: "root's"))
        let nobody = try callAsNobody(
            [
                #"{"jsonrpc":"2.0","id":1,"method":"update-content","params":{"app":"org.example.chat","identifier":"shared-id","content":{"title":"nobody's"}}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"list-notifications","params":{"app":"org.example.chat"}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"list-notifications","params":{"app":"org.example.chat","uid":0}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"subscribe-notifications","params":{"uid":0}}"#,
                #"{"jsonrpc":"2.0","id":5,"method":"deliver-summary","params":{}}"#,
                #"{"jsonrpc":"2.0","id":6,"method":"list-notifications","params":{}}"#,
            ],
            socket: herald.socketPath
        )
        #expect(response(1, in: nobody)?[pointer: "/result/identifier"] == "shared-id")
        let own = response(2, in: nobody)?[pointer: "/result/notifications"]
        #expect(NotificationListEndToEndTests.identifiers(own) == ["shared-id"])
        #expect(own?[pointer: "/0/content/title"] == "nobody's")
        #expect(response(3, in: nobody)?[pointer: "/error/code"] == 1006)
        #expect(response(4, in: nobody)?[pointer: "/error/code"] == 1006)
        // Issue 28: a person delivers their own summary (nothing held: 0), and lists every
        // app's of their own uid without naming one.
        #expect(response(5, in: nobody)?[pointer: "/result/delivered"] == 0)
        let everyApp = response(6, in: nobody)?[pointer: "/result/notifications"]
        #expect(NotificationListEndToEndTests.identifiers(everyApp) == ["shared-id"] && everyApp?[pointer: "/0/content/title"] == "nobody's")

        // Root's own list holds its own notification only; the administrator sees nobody's by uid.
        let mine = try NotificationListEndToEndTests.list(root, ["app": "org.example.chat"])
        #expect(mine.count == 1 && mine.first?[pointer: "/content/title"] == "root's")
        let theirs = try NotificationListEndToEndTests.list(root, ["uid": 65534])
        #expect(theirs.first?[pointer: "/content/title"] == "nobody's")

        // nobody presents its own uid, and removing root's identifier removes its own only.
        let presented = try callAsNobody(
            [
                #"{"jsonrpc":"2.0","id":1,"method":"subscribe-notifications","params":{}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"remove-notifications","params":{"app":"org.example.chat","identifiers":["shared-id","never"]}}"#,
            ],
            socket: herald.socketPath
        )
        #expect(response(1, in: presented)?[pointer: "/result/uid"] == 65534)
        #expect(response(2, in: presented)?[pointer: "/result/removed"] == 1)
        let removedEvent = presented.first { $0[pointer: "/method"] == "notifications-removed" }
        #expect(removedEvent?[pointer: "/params/uid"] == 65534 && removedEvent?[pointer: "/params/identifiers"] == ["shared-id"])
        #expect(try NotificationListEndToEndTests.list(root, ["app": "org.example.chat"]).count == 1, "root's is still there")
        #expect(try NotificationListEndToEndTests.list(root, ["uid": 65534]).isEmpty)
    }
}
