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
}
