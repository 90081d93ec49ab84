import Foundation
import HeraldDesktop
import HeraldProtocol
import Testing

/// Issue 31: a `focus-digest` is read leniently and shown as one bubble.
@Suite struct FocusDigestBubbleTests {
    static let text = """
        {"uid":1000,"focus":"Work","startedAt":"2026-11-23T09:00:00Z","endedAt":"2026-11-23T17:00:00Z","endedBy":"someday",\
        "total":14,"unlisted":2,"later":true,"entries":[\
        {"app":"org.example.chat","conversationIdentifier":"team","conversationName":"Team <A&B>","senders":["Ann","Bo"],"count":5,"lastAt":"2026-11-23T16:00:00Z"},\
        {"app":"org.example.chat","conversationIdentifier":"ann","senders":["Ann","Bo"],"count":2,"lastAt":"2026-11-23T16:00:00Z"},\
        {"app":"org.example.mail","count":1,"lastAt":"2026-11-23T15:00:00Z"},\
        {"app":"a","count":1,"lastAt":"2026-11-23T15:00:00Z"},{"app":"b","count":1,"lastAt":"2026-11-23T15:00:00Z"},\
        {"app":"c","count":1,"lastAt":"2026-11-23T15:00:00Z"},{"app":"d","count":1,"lastAt":"2026-11-23T15:00:00Z"}]}
        """

    @Test func theEventIsReadLeniently() throws {
        let event = try #require(try PresenterEvent(method: "focus-digest", params: try JSONParser.parse(Self.text)))
        guard case .focusDigest(let digest) = event else { Issue.record("not a digest: \(event)"); return }
        #expect(digest.uid == 1000 && digest.focus == "Work" && digest.total == 14 && digest.unlisted == 2)
        #expect(digest.endedBy == nil, "a way of ending it does not know reads as none")
        #expect(digest.entries.count == 7 && digest.entries[0].senders == ["Ann", "Bo"])
        let wrong = try JSONParser.parse(#"{"uid":1000,"focus":"Work","total":"many"}"#)
        #expect(throws: RPCError.self) { try PresenterEvent(method: "focus-digest", params: wrong) }
    }

    @Test func oneBubbleOfFiveEntriesThenTheRest() throws {
        guard case .focusDigest(let digest) = try #require(try PresenterEvent(method: "focus-digest", params: try JSONParser.parse(Self.text))) else {
            return
        }
        let bubble = try #require(NotificationMapping(capabilities: ServerCapabilities(["body", "body-markup"])).digestBubble(for: digest))
        #expect(bubble.key == .focusDigest(uid: 1000))
        #expect(bubble.arguments.summary == "While Work was on: 14 notifications")
        #expect(
            bubble.arguments.body
                == "org.example.chat: Team &lt;A&amp;B&gt; (5)\norg.example.chat: Ann, Bo (2)\norg.example.mail (1)\na (1)\nb (1)\nand 4 more")
        let plain = try #require(NotificationMapping(capabilities: ServerCapabilities([])).digestBubble(for: digest))
        #expect(plain.arguments.summary.hasPrefix("While Work was on: 14 notifications — org.example.chat: Team <A&B> (5), "))
        #expect(plain.arguments.body == "")
        let named = try #require(
            NotificationMapping(capabilities: ServerCapabilities(["body"])).digestBubble(for: digest) { $0 == "org.example.chat" ? "Chatty" : $0 }
        )
        #expect(named.arguments.body.hasPrefix("Chatty: Team <A&B> (5)\nChatty: Ann, Bo (2)\norg.example.mail (1)\n"), "apps by their desktop names")
        var none = digest
        none.total = 0
        #expect(NotificationMapping(capabilities: ServerCapabilities(["body"])).digestBubble(for: none) == nil)
    }

    /// A notification of `app` delivered at `seconds` after the digest's start, quiet for
    /// the Focus (`silencedByFocus`) or not.
    static func presented(_ identifier: String, app: String = "org.example.chat", title: String?, body: String?, at seconds: Double, silenced: Bool = true)
        -> PresentedNotification
    {
        let start = try! #require(RFC3339.parse("2026-11-23T09:00:00Z"))
        let reason = DeliveryReason(code: silenced ? .silencedByFocus : .delivered, message: "")
        return PresentedNotification(
            identifier: identifier, app: app, content: NotificationContent(title: title, body: body),
            delivery: Delivery(presentation: silenced ? .quiet : .alert, reasons: [reason]), receivedAt: start + seconds, deliveredAt: start + seconds)
    }

    @Test("Show: the digest offers it where the server has actions; the list is the silenced ones in its place, the first eight and how many more")
    func showListsWhatWasMissed() throws {
        guard case .focusDigest(let digest) = try #require(try PresenterEvent(method: "focus-digest", params: try JSONParser.parse(Self.text))) else {
            return
        }
        let withActions = NotificationMapping(capabilities: ServerCapabilities(["body", "body-markup", "actions"]))
        let offered = try #require(withActions.digestBubble(for: digest))
        #expect(offered.arguments.actions == [NotificationMapping.showMissedActionKey, "Show"])
        #expect(offered.actionKeys[NotificationMapping.showMissedActionKey] != nil)
        #expect(try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).digestBubble(for: digest)).arguments.actions.isEmpty)

        // Before the Focus, after it, or not silenced by it: not missed.
        #expect(!NotificationMapping.isMissed(Self.presented("early", title: "A", body: nil, at: -1), during: digest))
        #expect(!NotificationMapping.isMissed(Self.presented("late", title: "A", body: nil, at: 8 * 3600 + 1), during: digest))
        #expect(!NotificationMapping.isMissed(Self.presented("alert", title: "A", body: nil, at: 60, silenced: false), during: digest))
        #expect(NotificationMapping.isMissed(Self.presented("quiet", title: "A", body: nil, at: 60), during: digest))

        let missed = (1...10).reversed().map { Self.presented("m-\($0)", title: "Ann <\($0)>", body: "Lunch?", at: Double($0)) }
        let list = withActions.missedBubble(for: digest, newestFirst: missed) { $0 == "org.example.chat" ? "Chatty" : $0 }
        #expect(list.key == .focusDigest(uid: 1000), "in the digest's place")
        #expect(list.arguments.summary == "Missed while Work was on")
        let lines = list.arguments.body.split(separator: "\n").map(String.init)
        #expect(lines.first == "Chatty — Ann &lt;10&gt;: Lunch?", "newest first, escaped for markup: \(lines)")
        #expect(lines.count == 9 && lines[7] == "Chatty — Ann &lt;3&gt;: Lunch?", "\(lines)")
        #expect(lines.last == "and 6 more — heraldctl focus missed, heraldctl notifications list", "14 in the digest, 8 shown: \(lines)")
        #expect(list.arguments.actions.isEmpty)

        let gone = withActions.missedBubble(for: digest, newestFirst: [])
        #expect(gone.arguments.body == "None of them is in your list any more.")
        let long = Self.presented("long", title: nil, body: String(repeating: "x", count: 200), at: 1)
        #expect(NotificationMapping.missedLine(long, appName: "Chatty") == "Chatty — " + String(repeating: "x", count: 79) + "…")
    }
}
