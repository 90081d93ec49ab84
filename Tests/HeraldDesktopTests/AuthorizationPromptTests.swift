import Foundation
import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// An app's Focus authorization request as a prompt (docs/operations.md's herald-notify table,
/// "authorization-requested"), and the events and list result it comes from.
@Suite struct AuthorizationPromptTests {
    static let request = AuthorizationRequest(uid: 1000, app: "org.example.chat", requestedAt: Date(timeIntervalSince1970: 1_800_000_000))

    @Test func allowAndDontAllowWhereTheServerHasActions() {
        let mapping = NotificationMapping(capabilities: ServerCapabilities(["body", "actions"]))
        let bubble = mapping.authorizationBubble(for: Self.request)
        #expect(bubble.key == .authorization(uid: 1000, app: "org.example.chat"))
        #expect(bubble.arguments.appName == "Herald")
        #expect(bubble.arguments.summary == "Share your Focus status?")
        #expect(bubble.arguments.body == "org.example.chat wants to know when you have a Focus on.")
        #expect(bubble.arguments.actions == ["allow", "Allow", "deny", "Don't Allow"])
        #expect(bubble.actionKeys == ["allow": "authorized", "deny": "denied"])
        #expect(!bubble.answersDismissal)
    }

    @Test func normalUrgencySilentResidentAndNeverExpiring() {
        let bubble = NotificationMapping(capabilities: ServerCapabilities(["body", "actions", "sound"])).authorizationBubble(for: Self.request)
        #expect(bubble.arguments.hint("urgency") == .byte(1))
        #expect(bubble.arguments.hint("suppress-sound") == .boolean(true))
        #expect(bubble.arguments.hint("sound-name") == nil)
        #expect(bubble.arguments.hint("resident") == .boolean(true))
        #expect(bubble.arguments.expireTimeout == 0)
    }

    @Test func withoutActionsTheBodySaysHowToAnswer() {
        let bubble = NotificationMapping(capabilities: ServerCapabilities(["body"])).authorizationBubble(for: Self.request)
        #expect(bubble.arguments.actions.isEmpty)
        #expect(bubble.actionKeys.isEmpty)
        #expect(
            bubble.arguments.body
                == "org.example.chat wants to know when you have a Focus on.\nAnswer with: heraldctl authorization allow org.example.chat (or deny)"
        )
    }

    @Test func theAppIsEscapedWhereTheServerReadsMarkup() {
        let request = AuthorizationRequest(uid: 1000, app: "a<b>&c", requestedAt: Self.request.requestedAt)
        let markup = NotificationMapping(capabilities: ServerCapabilities(["body", "body-markup"])).authorizationBubble(for: request)
        #expect(markup.arguments.body.hasPrefix("a&lt;b&gt;&amp;c wants to know"))
        #expect(markup.arguments.body.hasSuffix("allow a&lt;b&gt;&amp;c (or deny)"))
        let plain = NotificationMapping(capabilities: ServerCapabilities(["body"])).authorizationBubble(for: request)
        #expect(plain.arguments.body.hasPrefix("a<b>&c wants to know"))
    }

    @Test func withoutABodyTheSummaryNamesTheApp() {
        let bubble = NotificationMapping(capabilities: ServerCapabilities(["actions"])).authorizationBubble(for: Self.request)
        #expect(bubble.arguments.summary == "Share your Focus status? (org.example.chat)")
    }

    @Test func requestedAndAnsweredEvents() throws {
        let requested = try JSONParser.parse(#"{"uid":1000,"app":"org.example.chat","requestedAt":"2027-01-15T08:00:00Z","later":1}"#)
        #expect(try PresenterEvent(method: "authorization-requested", params: requested) == .authorizationRequested(Self.request))
        let answered = try JSONParser.parse(
            #"{"uid":1000,"app":"org.example.chat","authorizationStatus":"authorized","requestedAt":"2027-01-15T08:00:00Z","answeredAt":"2027-01-15T08:00:05Z"}"#
        )
        #expect(try PresenterEvent(method: "authorization-answered", params: answered) == .authorizationAnswered(uid: 1000, app: "org.example.chat"))
    }

    @Test func aBrokenRequestNamesTheMember() throws {
        let params = try JSONParser.parse(#"{"uid":1000,"app":"org.example.chat","requestedAt":"yesterday"}"#)
        do {
            _ = try PresenterEvent(method: "authorization-requested", params: params)
            Issue.record("decoded a requestedAt that is not a date-time")
        } catch {
            #expect(error.pointer == "/params/requestedAt")
        }
    }

    @Test func theWaitingRequestsOfAListResult() throws {
        let result = try JSONParser.parse(
            #"{"requests":[{"uid":1000,"app":"org.example.chat","requestedAt":"2027-01-15T08:00:00Z"},{"uid":1000,"app":"org.example.mail","requestedAt":"2027-01-15T08:01:00Z"}]}"#
        )
        #expect(try AuthorizationRequest.waiting(in: result).map(\.app) == ["org.example.chat", "org.example.mail"])
        #expect(try AuthorizationRequest.waiting(in: JSONParser.parse(#"{"requests":[]}"#)).isEmpty)
        let broken = try JSONParser.parse(#"{"requests":[{"uid":1000}]}"#)
        do {
            _ = try AuthorizationRequest.waiting(in: broken)
            Issue.record("decoded a request without its app")
        } catch {
            #expect(error.pointer?.hasPrefix("/result/requests/0") == true, "\(error)")
        }
    }
}
