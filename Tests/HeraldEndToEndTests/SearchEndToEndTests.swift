import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31: a person searches their notifications with `search-notifications` and
/// `heraldctl notifications search`, over the real heraldd; the journal names what was
/// found and never the words searched for.
@Suite("Search, end to end")
struct SearchEndToEndTests {
    static func update(_ app: String, _ identifier: String, title: String, body: String) -> JSONValue {
        ["app": .string(app), "identifier": .string(identifier), "content": ["title": .string(title), "body": .string(body)]]
    }

    static func identifiers(_ response: JSONValue) -> [String] {
        (response[pointer: "/result/notifications"]?.arrayValue ?? []).compactMap { $0[pointer: "/identifier"]?.stringValue }
    }

    @Test("The socket and heraldctl find notifications by their words, newest first, and refuse a query of none")
    func searchOverTheSocketAndHeraldctl() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        try client.result("update-content", Self.update("org.example.chat", "c-1", title: "Ann Lee", body: "Dinner at eight?"))
        try client.result("update-content", Self.update("org.example.mail", "m-1", title: "Invoice", body: "Your café order"))
        try client.result("update-content", Self.update("org.example.chat", "c-2", title: "Bo", body: "Dinner is late"))

        #expect(Self.identifiers(try client.call("search-notifications", ["query": "dinner"])) == ["c-2", "c-1"])
        #expect(Self.identifiers(try client.call("search-notifications", ["query": "ANN din"])) == ["c-1"])
        #expect(Self.identifiers(try client.call("search-notifications", ["query": "cafe"])) == ["m-1"])
        #expect(Self.identifiers(try client.call("search-notifications", ["query": "mail"])) == ["m-1"], "the app's name")
        let paged = try client.call("search-notifications", ["query": "dinner", "limit": 1])
        #expect(Self.identifiers(paged) == ["c-2"])
        let cursor = try #require(paged[pointer: "/result/nextCursor"]?.stringValue)
        #expect(Self.identifiers(try client.call("search-notifications", ["query": "dinner", "cursor": .string(cursor)])) == ["c-1"])

        let none = try client.call("search-notifications", ["query": " ?! "])
        #expect(none[pointer: "/error/code"] == -32602 && none[pointer: "/error/data/pointer"] == "/query", "\(none.compactText)")
        let unknown = try client.call("search-notifications", ["query": "x", "words": "y"])
        #expect(unknown[pointer: "/error/code"] == -32602 && unknown[pointer: "/error/data/pointer"] == "/words", "\(unknown.compactText)")

        let human = try Heraldctl.run(["notifications", "search", "dinner", "--socket", herald.socketPath])
        let headlines = human.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(headlines.count == 2 && headlines[0].hasPrefix("c-2 org.example.chat delivered") && headlines[1].hasPrefix("c-1 "), "\(human)")
        let json = try Heraldctl.run(["notifications", "search", "din", "ann", "--json", "--socket", herald.socketPath])
        let found = ((json.jsonLines.first as? [String: Any])?["notifications"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
        #expect(found == ["c-1"], "\(json)")
        let nothing = try Heraldctl.run(["notifications", "search", "zebra", "--socket", herald.socketPath])
        #expect(nothing.stdout == "No notification has these words.\n", "\(nothing)")
    }

    /// Issue 45, item 6: heraldd keeps times finer than the wire's millisecond; before,
    /// `since` equal to a notification's own `receivedAt` left it out about half the time.
    @Test("since and until equal to a notification's own receivedAt, as the wire shows it, include it")
    func receivedAtGivenBack() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        for index in 0..<20 {
            try client.result("update-content", Self.update("org.example.chat", "n-\(index)", title: "Standup", body: "Room \(index)"))
        }
        let listed = try client.call("list-notifications", [:])
        let notifications = listed[pointer: "/result/notifications"]?.arrayValue ?? []
        #expect(notifications.count == 20, "\(listed.compactText.prefix(300))")
        for notification in notifications {
            let identifier = try #require(notification[pointer: "/identifier"]?.stringValue)
            let receivedAt = try #require(notification[pointer: "/receivedAt"])
            let since = Self.identifiers(try client.call("search-notifications", ["query": "standup", "since": receivedAt]))
            #expect(since.contains(identifier), "since \(receivedAt.compactText) leaves out \(identifier)")
            let until = Self.identifiers(try client.call("search-notifications", ["query": "standup", "until": receivedAt]))
            #expect(until.contains(identifier), "until \(receivedAt.compactText) leaves out \(identifier)")
            let both = Self.identifiers(try client.call("search-notifications", ["query": "standup", "since": receivedAt, "until": receivedAt]))
            #expect(both.contains(identifier))
        }
    }

    /// Issue 45, item 6: heraldctl prints what a search found a notification by, and reads
    /// `--since 1h` as an hour ago.
    @Test("heraldctl search prints the app, sender, conversation and body, and takes --since 1h")
    func heraldctlPrintsWhatMatched() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        try client.result(
            "donate",
            [
                "app": "org.example.chat",
                "interaction": [
                    "identifier": "i-1", "direction": "incoming",
                    "intent": ["type": "sendMessage", "sender": ["displayName": "Ann Lee"], "conversationIdentifier": "c-trip"],
                ],
            ])
        try client.result(
            "update-content",
            ["app": "org.example.chat", "identifier": "c-1", "interactionIdentifier": "i-1", "content": ["body": "Dinner at eight?\nBring wine."]])
        let recent = try Heraldctl.run(["notifications", "search", "dinner", "--since", "1h", "--socket", herald.socketPath])
        let lines = recent.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("c-1 org.example.chat delivered 20") == true, "\(recent)")
        #expect(lines.contains("  from Ann Lee, conversation c-trip") && lines.contains("  Dinner at eight?"), "\(recent)")
        let later = try Heraldctl.run(["notifications", "search", "dinner", "--until", "1h", "--socket", herald.socketPath])
        #expect(later.stdout == "No notification has these words.\n", "\(later)")
        let bad = try Heraldctl.run(["notifications", "search", "dinner", "--since", "yesterday", "--socket", herald.socketPath])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("--since takes how long ago"), "\(bad)")
    }

    @Test("Another uid's notifications are not found, and the journal keeps no word searched for",
        .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
    func searchIsPrivateAndItsWordsStayOutOfTheJournal() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "journal"])
        let client = try herald.connect()
        try client.result("update-content", Self.update("org.example.chat", "c-1", title: "Ann", body: "Surprise party plans"))
        let other = try #require(try callAsUser(65534, [request("search-notifications", ["query": "surprise"])], socket: herald.socketPath).first)
        #expect(other[pointer: "/result/notifications"] == [], "\(other.compactText)")
        #expect(Self.identifiers(try client.call("search-notifications", ["query": "surprise"], id: 9)) == ["c-1"])
        let journal = JournalReader(pid: herald.process.pid)
        let entries = try journal.waitForEntries(count: 2, matching: ["HERALD_METHOD=search-notifications"])
        #expect(entries.count == 2)
        let mine = try #require(entries.first { $0.field("HERALD_REQUEST_ID") == "9" })
        #expect(mine.field("MESSAGE_ID") == SearchNotificationsMethod.journalMessageIDs.ok)
        #expect(mine.field("HERALD_NOTIFICATION_IDS") == "c-1")
        let raw = try journal.entries(matching: ["HERALD_METHOD=search-notifications"]).raw
        #expect(!raw.lowercased().contains("surprise"), "no word searched for in the journal")
    }

    /// Issue 49, finding 2: a list of distinct words grew an index 20 times the list's
    /// limit. 8,000 notifications of 64 distinct words are 6 MB of their own bytes, inside
    /// `--max-notification-bytes` 8 MiB: without their index weighed, all were kept with
    /// 512,000 words (about 100 MB). Weighed, the list keeps what fits, heraldd's memory
    /// grows by a bounded amount, and 16 one-letter words are answered.
    @Test("A list of distinct words keeps within --max-notification-bytes, its index weighed; one-letter words are answered")
    func distinctWordsAreWeighed() throws {
        let limit = 8 << 20
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--max-notification-bytes", String(limit)])
        let client = try herald.connect()
        let residentBefore = try #require(residentKiB(of: herald.process.pid))
        for notification in 0..<8_000 {
            let words = (0..<64).map { index in
                let number = String(notification * 64 + index)
                return String(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(index % 16)))) + String(repeating: "0", count: 6 - number.count) + number
            }
            try client.result("update-content", Self.update("org.example.shop", "o-\(notification)", title: "Order", body: words.joined(separator: " ")))
        }
        let stats = try IndependentJSON.parse(try client.call("stats").compactText)
        let evicted = stats[pointer: "/result/limits/notificationsPerUID/evicted"]?.numberValue?.intValue ?? 0
        #expect(evicted > 7_000, "each notification weighs its 64 words' entries: about 11 KB, so under 800 fit; \(evicted) evicted")
        let growthKiB = (residentKiB(of: herald.process.pid) ?? .max) - residentBefore
        #expect(growthKiB < 48 << 10, "heraldd grew \(growthKiB) KiB for a list of 8 MiB")

        let letters = "a b c d e f g h i j k l m n o p"
        let found = try client.call("search-notifications", ["query": .string(letters), "limit": 5])
        #expect(Self.identifiers(found) == (7_995..<8_000).reversed().map { "o-\($0)" }, "\(found.compactText.prefix(300))")
        let tooMany = try client.call("search-notifications", ["query": .string(letters + " q")])
        #expect(tooMany[pointer: "/error/data/pointer"] == "/query" && tooMany[pointer: "/error/data/limit"] == 16, "\(tooMany.compactText)")
    }
}
