import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 28: a listing answers in pages that each fit `--max-response-bytes`, a cursor
/// takes up where a page stopped, and heraldctl follows the pages.
@Suite("Bounded answers, end to end")
struct BoundedAnswersEndToEndTests {
    static let app = "org.example.news"
    static let limit = 256 * 1024

    /// 24 notifications of about 100 KB each (ten strings of 10,000 characters in
    /// userInfo, each member within its limit): 2.4 MB in all, ten times the response limit.
    private func fill(_ client: UnixSocketClient) throws {
        let strings = JSONValue.array((0..<10).map { .string(String(repeating: "\($0)", count: 10_000)) })
        for index in 0..<24 {
            let content: JSONValue = ["title": .string("Story \(index)"), "userInfo": ["pages": strings]]
            try client.result("update-content", ["app": .string(Self.app), "identifier": .string("s-\(index)"), "content": content])
        }
    }

    @Test("list-notifications answers pages within --max-response-bytes; the cursors list each notification once")
    func listNotificationsPages() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--max-response-bytes", String(Self.limit)])
        let client = try herald.connect()
        try fill(client)
        var identifiers: [String] = []
        var cursor: JSONValue = .null
        var pages = 0
        repeat {
            let request = ["jsonrpc": "2.0", "id": .number(JSONNumber(pages)), "method": "list-notifications",
                           "params": ["app": .string(Self.app), "cursor": cursor]] as JSONValue
            try client.send(request.compactText + "\n")
            let line = try #require(try client.readLine())
            #expect(line.utf8.count + 1 <= Self.limit, "page \(pages) took \(line.utf8.count) bytes")
            let page = try IndependentJSON.parse(line)
            let listed = page[pointer: "/result/notifications"]?.arrayValue ?? []
            #expect(!listed.isEmpty, "\(line.prefix(300))")
            identifiers += listed.compactMap { $0[pointer: "/identifier"]?.stringValue }
            cursor = page[pointer: "/result/nextCursor"] ?? .null
            pages += 1
        } while cursor != .null && pages < 30
        #expect(pages > 1)
        #expect(identifiers == (0..<24).reversed().map { "s-\($0)" })

        let bad = try client.call("list-notifications", ["app": .string(Self.app), "cursor": "not-a-cursor"])
        #expect(describeError(bad) == "-32602 /cursor", "\(bad.compactText)")

        // heraldctl follows the pages: every notification, newest first.
        let run = try Heraldctl.run(["notifications", "list", "--app", Self.app, "--json", "--socket", herald.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        let listed = (run.jsonLines.first as? [String: Any])?["notifications"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["identifier"] as? String } == (0..<24).reversed().map { "s-\($0)" })
        let limited = try Heraldctl.run(["notifications", "list", "--app", Self.app, "--limit", "3", "--socket", herald.socketPath])
        #expect(limited.stdout.components(separatedBy: "Story ").count - 1 == 3, "\(limited)")
    }

    @Test("get-focus answers pages within --max-response-bytes; a Focus larger than a page is refused; heraldctl follows")
    func getFocusPages() throws {
        let limit = 64 * 1024
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--max-response-bytes", String(limit)])
        let client = try herald.connect()
        // Eight Focuses of 80 allowed apps of 200 characters: about 130 KB in all.
        func apps(_ count: Int, _ focus: Int) -> JSONValue {
            .array((0..<count).map { .string("org.example.f\(focus).a\($0)." + String(repeating: "x", count: 180)) })
        }
        let names = (0..<8).map { "Focus \($0)" }
        for (index, name) in names.enumerated() {
            try client.result("define-focus", ["focus": ["name": .string(name), "allowedApps": apps(80, index)]])
        }
        var listed: [String] = []
        var cursor: JSONValue = .null
        var pages = 0
        repeat {
            let request = ["jsonrpc": "2.0", "id": .number(JSONNumber(pages)), "method": "get-focus", "params": ["cursor": cursor]] as JSONValue
            try client.send(request.compactText + "\n")
            let line = try #require(try client.readLine())
            #expect(line.utf8.count + 1 <= limit, "page \(pages) took \(line.utf8.count) bytes")
            let page = try IndependentJSON.parse(line)
            listed += (page[pointer: "/result/focuses"]?.arrayValue ?? []).compactMap { $0[pointer: "/name"]?.stringValue }
            cursor = page[pointer: "/result/nextCursor"] ?? .null
            pages += 1
        } while cursor != .null && pages < 20
        #expect(pages > 1 && listed == names)

        // One Focus past a page: refused at /focus, also when a partial update would grow it.
        let big = try client.call("define-focus", ["focus": ["name": "Big", "allowedApps": apps(400, 9)]])
        #expect(describeError(big) == "-32602 /focus", "\(big.compactText.prefix(300))")
        let grown = try client.call("set-focus", ["focus": ["name": "Focus 0", "allowedPeople": .array((0..<300).map { ["handle": ["value": .string("p\($0)@example.org" + String(repeating: "y", count: 200))]] })]])
        #expect(describeError(grown) == "-32602 /focus", "\(grown.compactText.prefix(300))")

        let show = try Heraldctl.run(["focus", "show", "--json", "--socket", herald.socketPath])
        #expect(show.status == 0, "\(show.stderr)")
        let shown = ((show.jsonLines.first as? [String: Any])?["focuses"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(shown == names)
    }

    @Test("--max-notification-bytes keeps each uid's list within its bytes, the oldest delivered first; stats names the limit")
    func notificationBytesPerUID() throws {
        // 24 notifications of about 100 KB each against a limit of 600 KB: five are kept.
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--max-notification-bytes", "600000"])
        let client = try herald.connect()
        try fill(client)
        let run = try Heraldctl.run(["notifications", "list", "--app", Self.app, "--json", "--socket", herald.socketPath])
        #expect(run.status == 0, "\(run.stderr)")
        let kept = ((run.jsonLines.first as? [String: Any])?["notifications"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
        #expect(kept.count == 5, "\(kept)")
        #expect(kept == (0..<24).reversed().map { "s-\($0)" }.prefix(kept.count).map { $0 }, "the newest are kept")

        let huge: JSONValue = ["title": "Too much", "userInfo": ["pages": .array((0..<70).map { _ in .string(String(repeating: "z", count: 10_000)) })]]
        let refused = try client.call("update-content", ["app": .string(Self.app), "identifier": "huge", "content": huge])
        #expect(describeError(refused) == "-32602 /content", "\(refused.compactText.prefix(300))")

        let stats = try IndependentJSON.parse(try client.call("stats").compactText)
        #expect(stats[pointer: "/result/limits/notificationBytesPerUID/limit"]?.numberValue?.intValue == 600_000)
        #expect((stats[pointer: "/result/limits/notificationsPerUID/evicted"]?.numberValue?.intValue ?? 0) == 19)
    }
}
