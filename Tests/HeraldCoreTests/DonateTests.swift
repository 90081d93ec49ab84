import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct DonateTests {
    typealias F = Fixtures

    @Test func donatesAndReturnsIdentifierAndTime() throws {
        var state = F.state()
        let outcome = try state.donate(DonateParams(app: F.app, interaction: F.message()), caller: F.user, now: F.now)
        #expect(outcome.result == DonateResult(identifier: "m1", donatedAt: F.now))
        #expect(
            outcome.audit
                == AuditRecord(
                    app: F.app,
                    interactionIdentifier: "m1",
                    conversationIdentifier: "c1",
                    direction: "incoming",
                    intent: "sendMessage"
                )
        )
        #expect(state.interactionCount == 1)
    }

    @Test func generatesAnIdentifierWhenAbsent() throws {
        var state = F.state()
        let first = try state.donate(F.message(nil))
        let second = try state.donate(F.message(nil))
        #expect(first.identifier.count == 36)
        #expect(first.identifier != second.identifier)
        #expect(state.interactionCount == 2)
    }

    @Test func aSameRetryReturnsTheFirstResult() throws {
        var state = F.state()
        let first = try state.donate(F.message())
        let retry = try state.donate(F.message(), now: F.now + 60)
        #expect(retry == first)
        #expect(state.interactionCount == 1)
    }

    @Test func aDifferentInteractionWithTheSameIdentifierIs1007() throws {
        var state = F.state()
        try state.donate(F.message())
        let error = ruleError {
            try state.donate(DonateParams(app: F.app, interaction: F.message(conversation: "c2")), caller: F.user, now: F.now)
        }
        #expect(error?.code == .identifierConflict)
        #expect(error?.path == ["interaction", "identifier"])
    }

    @Test func identifiersAreNamespacedByUidAndApp() throws {
        var state = F.state()
        try state.donate(F.message())
        try state.donate(F.message(conversation: "c2"), caller: F.otherUser)
        try state.donate(F.message(conversation: "c3"), app: F.otherApp)
        #expect(state.interactionCount == 3)
    }

    @Test func appNameIsChecked() {
        var state = F.state()
        for bad in ["", "org example", "org/example", String(repeating: "a", count: 256), "ünï.code"] {
            let error = ruleError { try state.donate(DonateParams(app: bad, interaction: F.message()), caller: F.user, now: F.now) }
            #expect(error?.code == .invalidParams)
            #expect(error?.path == ["app"])
        }
        #expect(AppName.isValid("org.example.chat-2_b"))
        #expect(AppName.isValid(String(repeating: "a", count: 255)))
    }

    private func donationError(_ interaction: Interaction, state: HeraldState = Fixtures.state()) -> RuleError? {
        var state = state
        return ruleError { try state.donate(DonateParams(app: F.app, interaction: interaction), caller: F.user, now: F.now) }
    }

    @Test func anIncomingMessageNeedsASender() {
        let error = donationError(F.message(sender: nil))
        #expect(error?.code == .invalidParticipants)
        #expect(error?.path == ["interaction", "intent", "sender"])
    }

    @Test func anOutgoingMessageWithASenderIs1003() {
        let error = donationError(F.message(direction: .outgoing, recipients: [F.bo]))
        #expect(error?.code == .invalidParticipants)
        #expect(error?.path == ["interaction", "intent", "sender"])
    }

    @Test func anOutgoingMessageNeedsRecipientsOrACount() {
        let error = donationError(F.message(direction: .outgoing, sender: nil, recipients: []))
        #expect(error?.code == .invalidParticipants)
        #expect(error?.path == ["interaction", "intent", "recipients"])
        #expect(donationError(F.message(direction: .outgoing, sender: nil, metadata: .init(recipientCount: 3))) == nil)
        #expect(donationError(F.message(direction: .outgoing, sender: nil, recipients: [F.bo])) == nil)
    }

    @Test func isMeAnywhereIs1003WithItsPointer() {
        var me = F.cy
        me.isMe = true
        let recipient = donationError(F.message(recipients: [F.bo, F.dee, me]))
        #expect(recipient?.code == .invalidParticipants)
        #expect(recipient?.path == ["interaction", "intent", "recipients", 2])
        let sender = donationError(F.message(sender: me))
        #expect(sender?.path == ["interaction", "intent", "sender"])
        let contact = donationError(F.call(contacts: [F.bo, me]))
        #expect(contact?.code == .invalidParticipants)
        #expect(contact?.path == ["interaction", "intent", "contacts", 1])
    }

    @Test func aCallNeedsAContact() {
        let error = donationError(F.call(contacts: []))
        #expect(error?.code == .invalidParticipants)
        #expect(error?.path == ["interaction", "intent", "contacts"])
    }

    @Test func aMessageNeedsAConversationIdentifier() {
        let error = donationError(F.message(conversation: ""))
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["interaction", "intent", "conversationIdentifier"])
    }

    @Test func recipientCountBelowRecipientsIsInvalid() {
        let error = donationError(F.message(recipients: [F.bo, F.cy], metadata: .init(recipientCount: 1)))
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["interaction", "intent", "donationMetadata", "recipientCount"])
        #expect(donationError(F.message(recipients: [F.bo, F.cy], metadata: .init(recipientCount: 2))) == nil)
    }

    @Test func aPersonNeedsAHandleOrADisplayName() {
        let error = donationError(F.message(recipients: [F.bo, Person(nameComponents: .init(givenName: "X"))]))
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["interaction", "intent", "recipients", 1])
        let empty = donationError(F.message(sender: Person(handle: .init(value: ""))))
        #expect(empty?.path == ["interaction", "intent", "sender", "handle", "value"])
        let emptyName = donationError(F.message(recipients: [Person(displayName: "")]))
        #expect(emptyName?.path == ["interaction", "intent", "recipients", 0])
        let alias = Person(handle: .init(value: "bo@example.org"), aliases: [.init(value: "bo"), .init(value: "")])
        #expect(donationError(F.message(recipients: [F.bo, alias]))?.path == ["interaction", "intent", "recipients", 1, "aliases", 1, "value"])
    }

    @Test func imagesAreUrlOrBoundedData() {
        func sender(_ image: NotificationImage) -> Interaction {
            F.message(sender: Person(displayName: "Ann", image: image))
        }
        #expect(
            donationError(sender(NotificationImage(url: "http://example.org/a.png")))?.path == [
                "interaction", "intent", "sender", "image", "url",
            ])
        #expect(donationError(sender(NotificationImage(url: "file:///a.png"))) == nil)
        #expect(donationError(sender(NotificationImage(data: "aGk=", mimeType: "image/png"))) == nil)
        #expect(
            donationError(sender(NotificationImage(data: "***", mimeType: "image/png")))?.path == [
                "interaction", "intent", "sender", "image", "data",
            ]
        )
        #expect(
            donationError(sender(NotificationImage(data: "aGk=", mimeType: "text/plain")))?.path
                == ["interaction", "intent", "sender", "image", "mimeType"])
        #expect(donationError(sender(NotificationImage()))?.path == ["interaction", "intent", "sender", "image"])
        let big = Data(count: NotificationImage.maximumDataSize + 1).base64EncodedString()
        #expect(
            donationError(sender(NotificationImage(data: big, mimeType: "image/png")))?.path == [
                "interaction", "intent", "sender", "image", "data",
            ])
        let limit = Data(count: NotificationImage.maximumDataSize).base64EncodedString()
        #expect(donationError(sender(NotificationImage(data: limit, mimeType: "image/png"))) == nil)
    }

    @Test func notifyRecipientAnywayNeedsAuthorization() throws {
        let anyway = F.message(metadata: .init(notifyRecipientAnyway: true))
        let error = donationError(anyway)
        #expect(error?.code == .focusAuthorizationRequired)
        #expect(error?.path == ["interaction", "intent", "donationMetadata", "notifyRecipientAnyway"])
        var state = F.state()
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.admin, now: F.now)
        #expect(donationError(anyway, state: state) == nil)
    }

    @Test func theOldestAreEvictedBeyondTheLimit() throws {
        var state = F.state(CoreConfiguration(maxInteractions: 2))
        try state.donate(F.message("a"))
        try state.donate(F.message("b"), now: F.now + 1)
        try state.donate(F.message("c"), now: F.now + 2)
        #expect(state.interactionCount == 2)
        #expect(ruleError { try state.update("a") }?.code == .interactionNotFound)
        #expect(ruleError { try state.update("b") } == nil)
    }

    @Test func retentionPrunesOldDonations() throws {
        var state = F.state(CoreConfiguration(retention: 100))
        try state.donate(F.message("a"))
        try state.donate(F.message("b"), now: F.now + 50)
        let first = [100, 101].map { state.pruneExpired(now: F.now + $0).pruned }
        #expect(first == [0, 1])
        #expect(state.interactionCount == 1)
        let second = state.pruneExpired(now: F.now + 151)
        #expect(second.pruned == 1 && second.isComplete)
        #expect(state.interactionCount == 0)
    }

    @Test func retentionPrunesAStepAtATimeOldestFirst() throws {
        var state = F.state(CoreConfiguration(retention: 100))
        for index in 0..<5 { try state.donate(F.message("m\(index)"), now: F.now + Double(index)) }
        try state.donate(F.message("recent"), now: F.now + 90)
        let steps = (0..<3).map { _ in state.pruneExpired(now: F.now + 150, atMost: 2) }
        #expect(steps.map(\.pruned) == [2, 2, 1])
        #expect(steps.map(\.isComplete) == [false, false, true])
        #expect(state.interactionCount == 1)
        #expect(ruleError { try state.update("m4") }?.code == .interactionNotFound)
        #expect(ruleError { try state.update("recent") } == nil)
    }
}
