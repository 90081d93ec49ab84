import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Each uid's own Focus and summary, against the real heraldd: unprivileged uids (through
/// setpriv) set their own and get different decisions; one naming another uid gets 1006;
/// a scheduled Focus turns on and off by itself, seen by a subscribed app and journaled.
@Suite("Focus per uid, end to end", .enabled(if: getuid() == 0, "needs root to connect as other uids"))
struct FocusPerUIDEndToEndTests {
    /// Sends `requests` (one JSON text each) as `uid` through socat on one connection, and
    /// returns the responses, one per request, in order.
    static func call(as uid: UInt32, _ requests: [String], socket: String) throws -> [JSONValue] {
        let output = try runCapturingOutput(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(socket)"],
            input: requests.joined(separator: "\n") + "\n"
        )
        return try output.split(separator: "\n").map { try IndependentJSON.parse(String($0)) }
    }

    static func startOpenToEveryone(_ arguments: [String] = []) throws -> HeraldProcess {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666"] + arguments)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        return herald
    }

    static let notify = #"{"jsonrpc":"2.0","id":2,"method":"update-content","params":{"app":"org.example.chat","content":{"title":"Build finished"}}}"#

    @Test("Two unprivileged uids with different Focuses get different decisions for the same notification")
    func twoUIDsTwoDecisions() throws {
        let herald = try Self.startOpenToEveryone()
        let socket = herald.socketPath
        let strict = try Self.call(
            as: 60001,
            [#"{"jsonrpc":"2.0","id":1,"method":"set-focus","params":{"focus":{"name":"Work"}}}"#, Self.notify],
            socket: socket
        )
        let lenient = try Self.call(
            as: 60002,
            [#"{"jsonrpc":"2.0","id":1,"method":"set-focus","params":{"focus":{"name":"Work","allowedApps":["org.example.chat"]}}}"#, Self.notify],
            socket: socket
        )
        let none = try Self.call(as: 60003, [Self.notify], socket: socket)
        #expect(strict.first?[pointer: "/result/focus/name"] == "Work", "\(strict)")
        func codes(_ response: JSONValue?) -> [String] {
            response?[pointer: "/result/delivery/reasons"]?.arrayValue?.compactMap { $0[pointer: "/code"]?.stringValue } ?? []
        }
        #expect(codes(strict.last) == ["silencedByFocus"], "\(strict)")
        #expect(codes(lenient.last) == ["appAllowedByFocus", "delivered"], "\(lenient)")
        #expect(codes(none.last) == ["delivered"], "\(none)")
        // Each reads back its own; root may read any uid's.
        let mine = try Self.call(as: 60002, [#"{"jsonrpc":"2.0","id":3,"method":"get-focus"}"#], socket: socket)
        #expect(mine.first?[pointer: "/result/uid"] == .number(JSONNumber(60002)))
        #expect(mine.first?[pointer: "/result/active/reason"] == "manual")
        let root = try herald.connect().call("get-focus", ["uid": .number(JSONNumber(60001))])
        #expect(root[pointer: "/result/active/name"] == "Work")
        #expect(try herald.connect().call("stats")[pointer: "/result/focusesOn"] == .number(JSONNumber(2)))
    }

    @Test("A non-administrator naming another uid gets 1006, for the Focus and the summary")
    func anotherUIDRefused() throws {
        let herald = try Self.startOpenToEveryone()
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"get-focus","params":{"uid":60002}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"set-focus","params":{"focus":null,"uid":60002}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"set-summary","params":{"apps":[],"times":[],"uid":60002}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"get-summary","params":{"uid":60002}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"set-summary","params":{"apps":["org.example.news"],"times":["18:30"]}}"#,
        ]
        let responses = try Self.call(as: 60001, requests, socket: herald.socketPath)
        #expect(responses.count == 5, "\(responses)")
        for response in responses.prefix(4) {
            #expect(response[pointer: "/error/code"] == .number(JSONNumber(1006)), "\(response)")
            #expect(response[pointer: "/error/data/pointer"] == "/uid", "\(response)")
        }
        #expect(responses.last?[pointer: "/result/uid"] == .number(JSONNumber(60001)), "its own summary needs no administrator")
    }

    @Test("A scheduled Focus turns on and off by itself: focus-changed to a subscribed app, and the journal")
    func scheduledFocus() throws {
        let journal = JournalReader.isAvailable
        let herald = try HeraldProcess(
            .standalone, arguments: ["--focus-authorization", "allow"] + (journal ? ["--log-target", "journal"] : [])
        )
        let client = try herald.connect()
        let subscribed = try client.call(
            "request-focus", ["app": "org.example.chat", "requestAuthorization": true, "subscribe": true]
        )
        #expect(subscribed[pointer: "/result/focusStatus/isFocused"] == false, "\(subscribed)")
        // A window from 3 to 6 seconds from now, in heraldd's local time (the same zone as ours).
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone.current
        let start = Date().addingTimeInterval(3)
        let defined = try client.call(
            "define-focus",
            [
                "focus": [
                    "name": "Standup", "allowedPeople": [["handle": ["value": "ann@example.org"]]],
                    "schedules": [["start": .string(formatter.string(from: start)), "end": .string(formatter.string(from: start + 3))]],
                ]
            ]
        )
        #expect(defined[pointer: "/result/active"] == .null, "\(defined)")
        let on = try #require(try client.readJSON(timeout: 20))
        #expect(on[pointer: "/method"] == "focus-changed" && on[pointer: "/params/focusStatus/isFocused"] == true, "\(on)")
        let off = try #require(try client.readJSON(timeout: 20))
        #expect(off[pointer: "/method"] == "focus-changed" && off[pointer: "/params/focusStatus/isFocused"] == false, "\(off)")
        guard journal else { return }
        let entries = try JournalReader(pid: herald.process.pid).waitForEntries(count: 2, matching: ["MESSAGE_ID=8e4b1c7d2a5f4093b6d8e1f0c3a7b925"])
        #expect(entries.map { $0.field("HERALD_FOCUS_ON") } == ["1", "0"])
        #expect(entries.map { $0.field("HERALD_FOCUS_CAUSE") } == ["schedule", "ended"])
        #expect(entries.allSatisfy { $0.field("HERALD_FOCUS") == "Standup" && $0.field("HERALD_UID") == "0" })
        #expect(entries.first?.field("HERALD_ALLOWED_PEOPLE") == "1")
        let raw = try JournalReader(pid: herald.process.pid).entries().raw
        #expect(!raw.contains("ann@example.org"), "no allowed person's handle in the journal")
    }
}
