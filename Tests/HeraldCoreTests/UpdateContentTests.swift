import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct UpdateContentTests {
    typealias F = Fixtures

    @Test func aOneToOneMessage() throws {
        var state = F.state()
        try state.donate(F.message())
        let outcome = try state.update("m1", NotificationContent(title: "Chat", subtitle: "sub", body: "Lunch?", badge: 3))
        let content = outcome.result.content
        #expect(content.title == "Ann")
        #expect(content.subtitle == "sub")
        #expect(content.body == "Lunch?")
        #expect(content.badge == 3)
        #expect(content.threadIdentifier == "c1")
        #expect(content.relevanceScore == nil)
        #expect(
            content.communication
                == CommunicationInfo(
                    type: .sendMessage,
                    conversationIdentifier: "c1",
                    sender: F.ann,
                    recipients: [],
                    isGroup: false,
                    avatar: F.avatar
                )
        )
        #expect(outcome.result.delivery.codes == ["delivered"])
        #expect(outcome.result.delivery.announce)
        #expect(
            outcome.audit
                == AuditRecord(
                    app: F.app,
                    interactionIdentifier: "m1",
                    conversationIdentifier: "c1",
                    direction: "incoming",
                    intent: "sendMessage",
                    presentation: "alert",
                    reasons: ["delivered"],
                    notificationIdentifier: outcome.result.identifier
                )
        )
    }

    @Test func aNamedGroupUsesItsName() throws {
        var state = F.state()
        try state.donate(F.message(recipients: [F.bo], groupName: "Lunch club"))
        let content = try state.update("m1").result.content
        #expect(content.subtitle == "Lunch club")
        #expect(content.communication?.isGroup == true)
        #expect(content.communication?.avatar == F.groupImage)
    }

    @Test func anUnnamedGroupSummarizesTheOthers() throws {
        let cases: [([Person], Int?, String)] = [
            ([F.bo], nil, "To you & Bo"),
            ([F.bo, F.cy], nil, "To you, Bo & Cy"),
            ([F.bo, F.cy, F.dee], nil, "To you, Bo & 2 others"),
            ([F.bo], 2, "To you, Bo & 1 other"),
            ([], 5, "To you & 5 others"),
        ]
        for (recipients, count, expected) in cases {
            var state = F.state()
            try state.donate(F.message(recipients: recipients, metadata: .init(recipientCount: count)))
            #expect(try state.update("m1").result.content.subtitle == expected)
        }
    }

    @Test func callsUseTheFirstContactAndWith() throws {
        var state = F.state()
        try state.donate(F.call("k1", contacts: [F.bo]))
        try state.donate(F.call("k2", contacts: [F.bo, F.ann, F.cy]))
        let single = try state.update("k1", NotificationContent(body: "Incoming call")).result.content
        #expect(single.title == "Bo")
        #expect(single.subtitle == nil)
        #expect(single.communication?.type == .startCall)
        #expect(single.communication?.isGroup == false)
        let group = try state.update("k2", NotificationContent(body: "Incoming call")).result.content
        #expect(group.title == "Bo")
        #expect(group.subtitle == "With you, Ann & Cy")
        #expect(group.communication?.recipients == [F.ann, F.cy])
        #expect(group.communication?.avatar == F.groupImage)
    }

    @Test func relevanceIsOneForMentionsAndReplies() throws {
        var state = F.state()
        try state.donate(F.message("a", metadata: .init(mentionsCurrentUser: true)))
        try state.donate(F.message("b", metadata: .init(isReplyToCurrentUser: true)))
        try state.donate(F.message("c", metadata: .init(mentionsCurrentUser: true)))
        #expect(try state.update("a").result.content.relevanceScore == 1.0)
        #expect(try state.update("b").result.content.communication?.isReplyToCurrentUser == true)
        var given = F.content()
        given.relevanceScore = 0.25
        given.threadIdentifier = "t"
        let kept = try state.update("c", given).result.content
        #expect(kept.relevanceScore == 0.25)
        #expect(kept.threadIdentifier == "t")
    }

    @Test func withoutAnInteractionContentPassesThrough() throws {
        var state = F.state()
        var given = F.content(.timeSensitive)
        given.userInfo = ["k": 1]
        let outcome = try state.update(nil, given)
        #expect(outcome.result.content == given)
        #expect(outcome.result.delivery.codes == ["delivered"])
        #expect(outcome.audit.interactionIdentifier == nil)
    }

    @Test func updateBeforeDonateIs1001() {
        var state = F.state()
        let error = ruleError { try state.update("nope") }
        #expect(error?.code == .interactionNotFound)
        #expect(error?.path == ["interactionIdentifier"])
    }

    @Test func a1001SaysWhenTheInteractionWasDeletedExpiredOrEvicted() throws {
        var state = F.state(CoreConfiguration(maxInteractions: 3))
        try state.donate(F.message("gone"))
        try state.donate(F.message("kept"))
        _ = try state.deleteInteractions(.init(app: F.app, identifiers: ["gone"]), caller: F.user, now: F.now)
        let deleted = ruleError { try state.update("gone") }
        #expect(deleted?.code == .interactionNotFound)
        #expect(deleted?.reason.contains("was deleted") == true)
        // The same identifier for another uid or app was never donated there.
        #expect(ruleError { try state.update("gone", caller: F.otherUser) }?.reason.contains("donated no interaction") == true)
        #expect(ruleError { try state.update("gone", app: F.otherApp) }?.reason.contains("donated no interaction") == true)
        // Evicted beyond --max-interactions: "kept" is the oldest when three more arrive.
        for index in 0..<3 { try state.donate(F.message("m\(index)"), now: F.now + Double(index + 1)) }
        #expect(ruleError { try state.update("kept") }?.reason.contains("within its share") == true)
        // Expired by retention.
        state.pruneExpired(now: F.now + state.configuration.retention + 1.5)
        #expect(ruleError { try state.update("m0") }?.reason.contains("retention") == true)
        // Donated again, it is found again.
        try state.donate(F.message("gone"), now: F.now + state.configuration.retention + 2)
        #expect(ruleError { try state.update("gone") } == nil)
    }

    @Test func anotherUidsOrAppsInteractionIsIndistinguishableFromNone() throws {
        var state = F.state()
        try state.donate(F.message("secret"))
        let never = ruleError { try state.update("never", caller: F.otherUser) }
        let otherUid = ruleError { try state.update("secret", caller: F.otherUser) }
        let otherApp = ruleError { try state.update("secret", app: F.otherApp) }
        #expect(otherUid?.code == .interactionNotFound)
        #expect(otherUid?.reason == never?.reason.replacingOccurrences(of: "never", with: "secret"))
        #expect(otherUid?.path == never?.path)
        #expect(otherApp == otherUid)
        let deleted = try state.deleteInteractions(.init(app: F.app, identifiers: ["secret"]), caller: F.otherUser, now: F.now)
        #expect(deleted.result.deleted == 0)
        let retry = try state.donate(F.message("secret", conversation: "other"), caller: F.otherUser)
        #expect(retry.identifier == "secret")
        #expect(try state.update("secret").result.content.threadIdentifier == "c1")
    }

    @Test func anOutgoingInteractionIs1002() throws {
        var state = F.state()
        try state.donate(F.message(direction: .outgoing, sender: nil, recipients: [F.bo]))
        let error = ruleError { try state.update("m1") }
        #expect(error?.code == .cannotProvideContent)
        #expect(error?.path == ["interactionIdentifier"])
    }

    @Test func capabilitiesAreRequired() throws {
        var state = F.state()
        try state.donate(F.message())
        let critical = ruleError { try state.update(nil, F.content(.critical)) }
        #expect(critical?.code == .capabilityRequired)
        #expect(critical?.path == ["content", "interruptionLevel"])
        _ = try state.setCapabilities(.init(app: F.app, uid: 1000, communication: false, critical: true), caller: F.admin, now: F.now)
        #expect(ruleError { try state.update(nil, F.content(.critical)) } == nil)
        let communication = ruleError { try state.update("m1") }
        #expect(communication?.code == .capabilityRequired)
        #expect(communication?.path == ["interactionIdentifier"])
    }

    @Test func contentOrPayloadExactlyOne() {
        var state = F.state()
        let neither = ruleError { try state.updateContent(.init(app: F.app), caller: F.user, now: F.now) }
        #expect(neither?.code == .invalidParams)
        #expect(neither?.path == ["content"])
        let both = ruleError {
            try state.updateContent(.init(app: F.app, content: F.content(), payload: ["aps": [:]]), caller: F.user, now: F.now)
        }
        #expect(both?.path == ["payload"])
    }

    @Test func relevanceScoreIsFromZeroToOne() {
        var state = F.state()
        var content = F.content()
        content.relevanceScore = 1.5
        let error = ruleError { try state.update(nil, content) }
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["content", "relevanceScore"])
    }
}
