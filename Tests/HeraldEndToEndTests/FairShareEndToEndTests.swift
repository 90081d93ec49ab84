import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// An unprivileged uid running flat out — donating past its share, naming app after
/// app, silencing conversation after conversation, sending oversized strings — cannot
/// make root's or another uid's requests fail, nor their interactions disappear.
@Suite("Fair shares per uid, end to end", .enabled(if: getuid() == 0, "needs root to act as other uids"))
struct FairShareEndToEndTests {
    static let attacker = 65534
    static let victim = 1234

    static func donation(_ identifier: String, app: String, conversation: String = "c", id: Int, displayName: String = "Ann")
        -> String
    {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"\#(app)","interaction":{"identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","sender":{"handle":{"value":"ann"},"displayName":"\#(displayName)"},"conversationIdentifier":"\#(conversation)","content":"hi"}}}}"#
    }

    static func update(_ identifier: String, app: String, id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"update-content","params":{"app":"\#(app)","interactionIdentifier":"\#(identifier)","content":{"title":"t","body":"b"}}}"#
    }

    /// The attacker's whole load, one request per line: what it would send as fast as the
    /// socket takes it.
    static func flood() -> (lines: String, count: Int) {
        var lines: [String] = []
        for index in 0..<4000 {
            lines.append(donation("n\(index)", app: "org.example.flood", conversation: "c\(index)", id: lines.count + 1))
            lines.append(update("n\(index)", app: "org.example.flood", id: lines.count + 1))
        }
        for index in 0..<20 {
            lines.append(donation("a\(index)", app: "org.example.app\(index)", id: lines.count + 1))
        }
        lines.append(donation("big", app: "org.example.flood", id: lines.count + 1, displayName: String(repeating: "x", count: 900 * 1024)))
        return (lines.joined(separator: "\n") + "\n", lines.count)
    }

    @Test("uid 65534 flat out: root's and uid 1234's requests all succeed and their interactions stay")
    func flatOut() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: [
            "--max-interactions", "1700", "--max-interactions-per-uid", "1500", "--max-apps-per-uid", "4",
            "--max-silenced-per-uid", "50",
        ])
        let root = try herald.connect()
        for index in 0..<100 {
            let response = try root.call("donate", Self.params("root-\(index)"))
            #expect(response[pointer: "/result"] != nil, "\(response.compactText)")
        }
        let victimDonations = (0..<50).map { request("donate", Self.params("v-\($0)")) }
        let donated = try callAsUser(Self.victim, victimDonations, socket: herald.socketPath)
        #expect(donated.allSatisfy { $0[pointer: "/result"] != nil }, "\(donated.first?.compactText ?? "none")")
        // Each uid has its own Focus: root turns Work on for itself and for the attacker,
        // whose silenced marks the flood fills.
        for uid in [0, Self.attacker] {
            let focus: JSONValue = ["focus": ["name": "Work", "allowedPeople": [], "allowedApps": []], "uid": .number(JSONNumber(uid))]
            #expect(try root.call("set-focus", focus)[pointer: "/result"] != nil)
        }

        // The attacker, in the background.
        let folder = herald.folder
        let (lines, count) = Self.flood()
        let input = folder.appendingPathComponent("flood.in").path
        let output = folder.appendingPathComponent("flood.out").path
        try Data(lines.utf8).write(to: URL(fileURLWithPath: input))
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let attacker = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=\(Self.attacker)", "--regid=\(Self.attacker)", "--clear-groups", "/usr/bin/socat", "-t", "60", "-",
                "UNIX-CONNECT:\(herald.socketPath)",
            ],
            standardInput: input,
            standardOutput: output
        )

        // Root and uid 1234 meanwhile.
        var failures: [String] = []
        for index in 0..<200 {
            let donated = try root.call("donate", Self.params("late-\(index)"))
            if donated[pointer: "/result"] == nil { failures.append(donated.compactText) }
            let updated = try root.call("update-content", Self.updateParams("root-\(index % 100)"))
            if updated[pointer: "/result"] == nil { failures.append(updated.compactText) }
        }
        let victimUpdates = try callAsUser(Self.victim, (0..<50).map { request("update-content", Self.updateParams("v-\($0)")) }, socket: herald.socketPath)
        failures += victimUpdates.filter { $0[pointer: "/result"] == nil }.map(\.compactText)
        #expect(attacker.waitForExit(timeout: 120) == 0)
        #expect(failures.isEmpty, "\(failures.prefix(3))")

        // Every attacker request was answered; the limits, not a crash, stopped it.
        let answers = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(answers.count == count)

        // Nothing of root's or uid 1234's is gone.
        var missing: [String] = []
        for index in 0..<100 {
            let updated = try root.call("update-content", Self.updateParams("root-\(index)"))
            if updated[pointer: "/result"] == nil { missing.append("root-\(index)") }
        }
        let after = try callAsUser(Self.victim, (0..<50).map { request("update-content", Self.updateParams("v-\($0)")) }, socket: herald.socketPath)
        missing += after.enumerated().filter { $0.element[pointer: "/result"] == nil }.map { "v-\($0.offset)" }
        #expect(missing.isEmpty, "\(missing.prefix(5))")

        let stats = try root.call("stats")
        print("stats after the flood: \(stats[pointer: "/result/limits"]?.compactText ?? "none")")
        #expect(stats[pointer: "/result/interactions"]?.numberValue?.intValue ?? .max <= 1700)
        let counted = ["interactionsPerUID/evicted", "interactions/evicted", "appsPerUID/refused", "silencedPerUID/refused", "stringBytes/refused"]
            .filter { (stats[pointer: "/result/limits/\($0)"]?.numberValue?.intValue ?? 0) > 0 }
        #expect(counted.count == 5, "\(stats[pointer: "/result/limits"]?.compactText ?? "none")")
    }

    static func params(_ identifier: String, app: String = "org.example.chat") -> JSONValue {
        [
            "app": .string(app),
            "interaction": [
                "identifier": .string(identifier), "direction": "incoming",
                "intent": ["type": "sendMessage", "sender": ["handle": ["value": "ann"]], "conversationIdentifier": "c"],
            ],
        ]
    }

    static func updateParams(_ identifier: String) -> JSONValue {
        ["app": "org.example.chat", "interactionIdentifier": .string(identifier), "content": ["title": "t", "body": "b"]]
    }
}
