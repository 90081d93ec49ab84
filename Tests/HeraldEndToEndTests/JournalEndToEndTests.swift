import Foundation
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every RPC result is one structured journal entry, read back from a real journald.
@Suite("Journal, end to end", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
struct JournalEndToEndTests {
    private let app = "org.example.chat"

    private func startHerald() throws -> (HeraldProcess, UnixSocketClient, JournalReader) {
        let herald = try HeraldProcess(arguments: ["--log-target", "journal"])
        let client = try herald.connect()
        _ = try client.call("rpc.discover", id: "warm-up")  // the daemon starts at the first connection
        return (herald, client, JournalReader(pid: herald.process.pid))
    }

    private func incomingMessage(_ identifier: String, body: String = "Lunch?") -> JSONValue {
        [
            "app": .string(app),
            "interaction": [
                "identifier": .string(identifier),
                "direction": "incoming",
                "intent": [
                    "type": "sendMessage",
                    "sender": ["handle": ["value": "ann@example.org", "type": "emailAddress"], "displayName": "Ann Lee"],
                    "recipients": [["displayName": "Bo"]],
                    "conversationIdentifier": "c-ann",
                    "content": .string(body),
                ],
            ],
        ]
    }

    @Test("A successful donate is one entry with every field, at priority 6")
    func donateEntry() throws {
        let (herald, client, journal) = try startHerald()
        _ = try client.call("donate", incomingMessage("m-17"), id: 7)
        let entries = try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=donate"])
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.field("MESSAGE") == "donate ok app=org.example.chat interaction=m-17 incoming sendMessage")
        #expect(entry.field("PRIORITY") == "6")
        #expect(entry.field("SYSLOG_IDENTIFIER") == "heraldd")
        #expect(entry.field("MESSAGE_ID") == DonateMethod.journalMessageIDs.ok)
        #expect(entry.field("HERALD_REQUEST_ID") == "7")
        #expect(entry.field("HERALD_OUTCOME") == "ok")
        #expect(entry.field("HERALD_ERROR_CODE") == nil)
        #expect(entry.field("HERALD_APP") == app)
        #expect(entry.field("HERALD_PEER_UID") == String(getuid()))
        #expect(entry.field("HERALD_PEER_PID") == String(getpid()))
        #expect(entry.field("HERALD_DURATION_USEC").flatMap(UInt64.init) != nil)
        #expect(entry.field("HERALD_INTERACTION_ID") == "m-17")
        #expect(entry.field("HERALD_CONVERSATION_ID") == "c-ann")
        #expect(entry.field("HERALD_DIRECTION") == "incoming")
        #expect(entry.field("HERALD_INTENT") == "sendMessage")
        _ = herald
    }

    @Test("A silenced update-content records its presentation and reason codes")
    func deliveryEntry() throws {
        let (herald, client, journal) = try startHerald()
        _ = try client.call("donate", incomingMessage("m-1"), id: 1)
        _ = try client.call("set-focus", ["focus": ["name": "Work", "allowedPeople": [], "allowedApps": []]], id: 2)
        let response = try client.call(
            "update-content",
            ["app": .string(app), "interactionIdentifier": "m-1", "content": ["body": "Lunch?"]],
            id: "u-1"
        )
        #expect(response[pointer: "/result/delivery/presentation"] == "quiet")
        let entry = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=update-content"]).first)
        // A string id is the client's text: only its length is kept.
        #expect(entry.field("HERALD_REQUEST_ID") == nil)
        #expect(entry.field("HERALD_REQUEST_ID_BYTES") == "3")
        #expect(entry.field("HERALD_PRESENTATION") == "quiet")
        #expect(entry.field("HERALD_REASONS") == "silencedByFocus")
        #expect(entry.field("HERALD_INTERACTION_ID") == "m-1")
        #expect(entry.field("MESSAGE_ID") == UpdateContentMethod.journalMessageIDs.ok)
        // Simply not allowed: no causes. A Time Sensitive one under a Focus that does not
        // allow them: the cause, in the response and in the journal.
        #expect(entry.field("HERALD_SILENCED_CAUSES") == nil)
        #expect(response[pointer: "/result/delivery/reasons/0/causes"] == nil)
        _ = try client.call(
            "set-focus", ["focus": ["name": "Work", "allowedPeople": [], "allowedApps": [], "allowTimeSensitive": false]], id: 3)
        let urgent = try client.call(
            "update-content", ["app": .string(app), "content": ["body": "Now", "interruptionLevel": "timeSensitive"]], id: 4)
        #expect(urgent[pointer: "/result/delivery/reasons/0/causes"] == ["timeSensitiveNotAllowed"])
        let entries = try journal.waitForEntries(count: 2, matching: ["HERALD_METHOD=update-content"])
        #expect(entries.count == 2 && entries[1].field("HERALD_SILENCED_CAUSES") == "timeSensitiveNotAllowed")
        _ = herald
    }

    @Test("Each silenced result names its Focus, and HERALD_REASON=silencedByFocus finds it among other reasons")
    func silencedEntriesNameTheFocus() throws {
        let (herald, client, journal) = try startHerald()
        _ = try client.call("set-summary", ["apps": ["org.example.news"], "times": ["08:00"]], id: 1)
        _ = try client.call("set-focus", ["focus": ["name": "Work"]], id: 2)
        _ = try client.call("update-content", ["app": .string(app), "content": ["body": "Lunch?"]], id: 3)
        let held = try client.call("update-content", ["app": "org.example.news", "content": ["title": "Story"]], id: 4)
        #expect(held[pointer: "/result/delivery/presentation"] == "summary")
        _ = try client.call("set-focus", ["focus": nil], id: 5)
        _ = try client.call("update-content", ["app": .string(app), "content": ["body": "Hi"]], id: 6)
        // docs/operations.md's recipe: one HERALD_REASON per reason, so an exact match finds each.
        let silenced = try journal.waitForEntries(count: 2, matching: ["HERALD_REASON=silencedByFocus"])
        #expect(silenced.map { $0.field("HERALD_REQUEST_ID") } == ["3", "4"])
        #expect(silenced.map { $0.field("HERALD_FOCUS") } == ["Work", "Work"])
        #expect(silenced.map { $0.field("HERALD_REASONS") } == ["silencedByFocus", "silencedByFocus,heldForSummary"])
        // journald lists a repeated field's values in the order the journal file first
        // stored each, which depends on the journal's history: compared as a set.
        let reasons = Set((silenced.last?["HERALD_REASON"]?.arrayValue ?? []).compactMap(\.stringValue))
        #expect(reasons == ["silencedByFocus", "heldForSummary"])
        #expect(silenced.last?["HERALD_REASON"]?.arrayValue?.count == 2, "one field per reason")
        let all = try journal.waitForEntries(count: 3, matching: ["HERALD_METHOD=update-content"])
        #expect(all.count == 3 && all.last?.field("HERALD_FOCUS") == nil && all.last?.field("HERALD_REASON") == "delivered")
        _ = herald
    }

    @Test("Errors: a client's at priority 4 with its code; parse errors and unknown methods have their own ids")
    func errorEntries() throws {
        let (herald, client, journal) = try startHerald()
        _ = try client.call("update-content", ["app": .string(app), "interactionIdentifier": "never", "content": [:]], id: 3)
        try client.send("this is not json\n")
        _ = try client.readLine()
        _ = try client.call("no-such-method", id: 4)
        let errors = try journal.waitForEntries(count: 3, matching: ["HERALD_OUTCOME=error"])
        try #require(errors.count == 3)
        #expect(errors.allSatisfy { $0.field("PRIORITY") == "4" })
        #expect(errors[0].field("HERALD_ERROR_CODE") == "1001")
        #expect(errors[0].field("MESSAGE_ID") == UpdateContentMethod.journalMessageIDs.error)
        #expect(errors[0].field("HERALD_APP") == app)
        // Built from the code and the pointer, never from the reason the client got.
        #expect(errors[0].field("HERALD_ERROR_REASON") == "Interaction not found at /interactionIdentifier")
        #expect(errors[0].field("HERALD_ERROR_POINTER") == "/interactionIdentifier")
        #expect(errors[1].field("HERALD_ERROR_CODE") == "-32700")
        #expect(errors[1].field("HERALD_METHOD") == JournalMessageID.unreadableMethod)
        #expect(errors[1].field("HERALD_REQUEST_ID") == "null")
        #expect(errors[1].field("MESSAGE_ID") == JournalMessageID.parseError)
        #expect(errors[2].field("HERALD_ERROR_CODE") == "-32601")
        #expect(errors[2].field("MESSAGE_ID") == JournalMessageID.methodNotFound)
        // The unknown method's name is what the client sent: it stays out of the journal.
        #expect(errors[1].field("HERALD_ERROR_REASON") == "Parse error")
        #expect(errors[2].field("HERALD_ERROR_REASON") == "Method not found")
        #expect(errors[2].field("HERALD_METHOD") == JournalMessageID.unreadableMethod)
        #expect(errors[2].field("MESSAGE") == "(unknown method) error -32601")
        #expect(errors[2].field("HERALD_ERROR_POINTER") == nil)
        _ = herald
    }

    @Test("N requests, batch elements and notifications included, make exactly N entries")
    func exactlyOneEntryPerResult() throws {
        let (herald, client, journal) = try startHerald()
        let singles = 40
        for index in 0..<singles {
            _ = try client.call("donate", incomingMessage("n-\(index)"), id: .number(JSONNumber(index)))
        }
        // A batch of 5 requests and 2 notifications: 7 results, 5 answered.
        let batch: [JSONValue] = (0..<7).map { index in
            var request: JSONObject = ["jsonrpc": "2.0", "method": "donate", "params": incomingMessage("b-\(index)")]
            if index < 5 { request["id"] = .number(JSONNumber(1000 + index)) }
            return .object(request)
        }
        try client.send(JSONValue.array(batch).compactText + "\n")
        #expect(try client.readJSON()?.arrayValue?.count == 5)
        let expected = singles + 7
        let entries = try journal.waitForEntries(count: expected, matching: ["HERALD_METHOD=donate"])
        usleep(500_000)  // anything extra would have arrived by now
        #expect(try journal.entries(matching: ["HERALD_METHOD=donate"]).entries.count == expected)
        #expect(entries.filter { $0.field("HERALD_REQUEST_ID") == nil }.count == 2)
        _ = herald
    }

    @Test("A communication's content never reaches the journal")
    func noContentInJournal() throws {
        let (herald, client, journal) = try startHerald()
        let marker = "marker-\(UUID().uuidString)"
        _ = try client.call("donate", incomingMessage("secret-1", body: "body \(marker)"), id: 1)
        _ = try client.call(
            "update-content",
            [
                "app": .string(app), "interactionIdentifier": "secret-1",
                "content": [
                    "title": .string("title \(marker)"), "subtitle": .string("sub \(marker)"), "body": .string("body \(marker)"),
                    "userInfo": ["note": .string(marker)],
                ],
            ],
            id: 2
        )
        _ = try client.call(
            "update-content",
            [
                "app": .string(app),
                "payload": ["aps": ["alert": ["title": .string(marker), "body": .string(marker)], "mutable-content": 1]],
            ],
            id: 3
        )
        _ = try journal.waitForEntries(count: 4)
        let raw = try journal.entries().raw
        #expect(raw.contains("secret-1"))
        #expect(!raw.contains(marker))
        _ = herald
    }

    @Test("Every method's result, and every kind of error, has its entry with the catalog's MESSAGE_ID")
    func everyMethodAndErrorPath() throws {
        let (herald, client, journal) = try startHerald()
        let calls: [(String, JSONValue)] = [
            ("stats", [:]),
            ("donate", incomingMessage("e-1")),
            ("update-content", ["app": .string(app), "interactionIdentifier": "e-1", "content": ["body": "x"]]),
            ("request-focus", ["app": .string(app), "requestAuthorization": true]),
            ("set-focus-authorization", ["app": .string(app), "status": "authorized"]),
            ("set-capabilities", ["app": .string(app), "critical": true]),
            ("set-summary", ["apps": [.string(app)], "times": ["08:00", "18:00"]]),
            ("set-focus", ["focus": .null]),
            ("suggest-people", [:]),
            ("delete-interactions", ["app": .string(app), "identifiers": ["e-1"]]),
        ]
        for (index, (method, params)) in calls.enumerated() {
            let response = try client.call(method, params, id: .number(JSONNumber(100 + index)))
            #expect(response[pointer: "/result"] != nil, "\(method): \(response.compactText)")
        }
        // Invalid params, an invalid request, and an error inside a batch.
        _ = try client.call("donate", ["app": "not a valid app name!"], id: 200)
        try client.send(#"{"jsonrpc":"1.0","method":"stats","id":201}"# + "\n")
        _ = try client.readLine()
        try client.send(#"[{"jsonrpc":"2.0","method":"delete-interactions","params":{"app":"org.example.chat"},"id":202}]"# + "\n")
        _ = try client.readLine()

        let expected = 1 + calls.count  // the warm-up rpc.discover too
        let entries =
            try journal.waitForEntries(count: expected, matching: ["SYSLOG_IDENTIFIER=heraldd", "HERALD_OUTCOME=ok"])
            + journal.waitForEntries(count: 3, matching: ["SYSLOG_IDENTIFIER=heraldd", "HERALD_OUTCOME=error"])
        let byID = Dictionary(entries.compactMap { entry in entry.field("HERALD_REQUEST_ID").map { ($0, entry) } }) { first, _ in first }
        for (index, (method, _)) in calls.enumerated() {
            let entry = try #require(byID[String(100 + index)], "no entry for \(method)")
            #expect(entry.field("HERALD_METHOD") == method)
            #expect(entry.field("MESSAGE_ID") == HeraldMethods.journalMessageIDs[method]?.ok)
            #expect(entry.field("PRIORITY") == "6")
            #expect(entry.field("MESSAGE")?.hasPrefix("\(method) ok") == true)
        }
        let invalidParams = try #require(byID["200"])
        #expect(invalidParams.field("HERALD_ERROR_CODE") == "-32602")
        #expect(invalidParams.field("MESSAGE_ID") == DonateMethod.journalMessageIDs.error)
        #expect(invalidParams.field("HERALD_APP") == nil, "an invalid app name is not written to the journal")
        let invalidRequest = try #require(byID["201"])
        #expect(invalidRequest.field("HERALD_ERROR_CODE") == "-32600")
        #expect(invalidRequest.field("MESSAGE_ID") == JournalMessageID.invalidRequest)
        let batchElement = try #require(byID["202"])
        #expect(batchElement.field("HERALD_ERROR_CODE") == "-32602")
        #expect(batchElement.field("PRIORITY") == "4")
        _ = herald
    }
}
