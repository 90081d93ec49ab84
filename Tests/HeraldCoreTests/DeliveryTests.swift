import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct DeliveryTests {
    typealias F = Fixtures
    static let work = FocusConfiguration(name: "Work")

    private func deliver(
        _ level: InterruptionLevel?,
        focus: FocusConfiguration? = nil,
        interaction: Interaction? = nil,
        configure: (inout HeraldState) throws -> Void = { _ in }
    ) throws -> Delivery {
        var state = F.state()
        try configure(&state)
        if let focus { try state.focusOn(focus) }
        if let interaction { try state.donate(interaction) }
        return try state.update(interaction?.identifier, F.content(level)).result.delivery
    }

    @Test func eachLevelWithoutAFocus() throws {
        #expect(try deliver(.passive) == Delivery(presentation: .quiet, reasons: [reason(.passive)]))
        let active = try deliver(nil)
        #expect(active.presentation == .alert && active.sound && active.lightsScreen)
        #expect(!active.announce && !active.bypassesRinger && !active.breaksThroughFocus)
        #expect(active.codes == ["delivered"])
        let timeSensitive = try deliver(.timeSensitive)
        #expect(timeSensitive.announce && !timeSensitive.bypassesRinger)
        let critical = try deliver(.critical) { state in
            _ = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now)
        }
        #expect(critical.bypassesRinger && !critical.announce && critical.presentation == .alert)
        #expect(critical.reasons.last?.message == "Delivered as an alert, with sound and light, bypassing the ringer.")
    }

    @Test func eachLevelWithAFocus() throws {
        let passive = try deliver(.passive, focus: Self.work)
        #expect(passive.codes == ["passive"])
        let active = try deliver(.active, focus: Self.work)
        #expect(active == Delivery(presentation: .quiet, reasons: [reason(.silencedByFocus)]))
        let timeSensitive = try deliver(.timeSensitive, focus: Self.work)
        #expect(timeSensitive.codes == ["timeSensitiveAllowedByFocus", "delivered"])
        #expect(timeSensitive.breaksThroughFocus)
        var strict = Self.work
        strict.allowTimeSensitive = false
        #expect(try deliver(.timeSensitive, focus: strict).codes == ["silencedByFocus"])
        let critical = try deliver(.critical, focus: strict) { state in
            _ = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now)
        }
        #expect(critical.codes == ["criticalBreaksThroughFocus", "delivered"])
        #expect(critical.reasons[0].message == "Critical notifications break through the Focus \u{201C}Work\u{201D}.")
    }

    @Test func timeSensitiveWithoutTheCapabilityIsActive() throws {
        let delivery = try deliver(.timeSensitive, focus: Self.work) { state in
            _ = try state.setCapabilities(.init(app: F.app, uid: 1000, timeSensitive: false), caller: F.admin, now: F.now)
        }
        #expect(delivery.codes == ["timeSensitiveNotPermitted", "silencedByFocus"])
        let alone = try deliver(.timeSensitive) { state in
            _ = try state.setCapabilities(.init(app: F.app, uid: 1000, timeSensitive: false), caller: F.admin, now: F.now)
        }
        #expect(alone.codes == ["timeSensitiveNotPermitted", "delivered"])
        #expect(!alone.announce)
    }

    @Test func allowedAppsAndPeopleBreakThrough() throws {
        var apps = Self.work
        apps.allowedApps = [F.app]
        #expect(try deliver(nil, focus: apps).codes == ["appAllowedByFocus", "delivered"])
        var people = Self.work
        people.allowedPeople = [Person(handle: .init(value: "ANN@example.org", type: .emailAddress))]
        let message = try deliver(nil, focus: people, interaction: F.message())
        #expect(message.codes == ["senderAllowedByFocus", "delivered"])
        #expect(message.announce && message.breaksThroughFocus)
        #expect(try deliver(nil, focus: people, interaction: F.message(sender: F.bo)).codes == ["silencedByFocus"])
        var caller = Self.work
        caller.allowedPeople = [Person(handle: .init(value: "+15550100"))]
        #expect(try deliver(nil, focus: caller, interaction: F.call()).codes == ["senderAllowedByFocus", "delivered"])
        var contact = Self.work
        contact.allowedPeople = [Person(contactIdentifier: "contact-42")]
        var known = F.ann
        known.contactIdentifier = "contact-42"
        #expect(try deliver(nil, focus: contact, interaction: F.message(sender: known)).codes == ["senderAllowedByFocus", "delivered"])
        #expect(try deliver(nil, focus: contact, interaction: F.message()).codes == ["silencedByFocus"])
    }

    @Test func repeatedCallsInsideTheWindowBreakThrough() throws {
        var state = F.state()
        try state.focusOn(Self.work)
        try state.donate(F.call("k1"))
        #expect(try state.update("k1").result.delivery.codes == ["silencedByFocus"])
        try state.donate(F.call("k2"), now: F.now + 180)
        #expect(try state.update("k2", now: F.now + 180).result.delivery.codes == ["repeatedCall", "delivered"])
        try state.donate(F.call("k3", contacts: [F.cy]), now: F.now + 190)
        #expect(try state.update("k3", now: F.now + 190).result.delivery.codes == ["silencedByFocus"])
    }

    @Test func repeatedCallsOutsideTheWindowOrNotAllowedAreSilenced() throws {
        var state = F.state()
        try state.focusOn(Self.work)
        try state.donate(F.call("k1"))
        try state.donate(F.call("k2"), now: F.now + 181)
        #expect(try state.update("k2", now: F.now + 181).result.delivery.codes == ["silencedByFocus"])
        // The interaction's own date counts, not the donation time.
        try state.donate(F.call("k3", date: F.now + 300), now: F.now + 1000)
        try state.donate(F.call("k4", date: F.now + 400), now: F.now + 1001)
        #expect(try state.update("k4", now: F.now + 1001).result.delivery.codes == ["repeatedCall", "delivered"])
        var noRepeats = Self.work
        noRepeats.allowRepeatedCalls = false
        try state.focusOn(noRepeats)
        #expect(try state.update("k4", now: F.now + 1001).result.delivery.codes == ["silencedByFocus"])
    }

    @Test func anOutgoingCallIsNotAnEarlierCall() throws {
        var state = F.state()
        try state.focusOn(Self.work)
        try state.donate(F.call("out", direction: .outgoing))
        try state.donate(F.call("k1"), now: F.now + 10)
        #expect(try state.update("k1", now: F.now + 10).result.delivery.codes == ["silencedByFocus"])
    }

    @Test func notifyAnywayAfterASilencedMessageOfThisFocus() throws {
        var state = F.state()
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.admin, now: F.now)
        let anyway = DonationMetadata(notifyRecipientAnyway: true)
        try state.focusOn(Self.work)
        try state.donate(F.message("early", metadata: anyway))
        // Nothing silenced yet in this conversation: the first is silenced.
        #expect(try state.update("early").result.delivery.codes == ["silencedByFocus"])
        try state.donate(F.message("again", metadata: anyway))
        #expect(try state.update("again").result.delivery.codes == ["notifiedAnyway", "delivered"])
        // Another conversation was never silenced.
        try state.donate(F.message("elsewhere", conversation: "c2", metadata: anyway))
        #expect(try state.update("elsewhere").result.delivery.codes == ["silencedByFocus"])
        // Setting the Focus on again continues its activation: the marks stay.
        try state.focusOn(Self.work)
        #expect(try state.update("again", now: F.now + 60).result.delivery.codes == ["notifiedAnyway", "delivered"])
        // Off and on again is a new activation, which starts afresh.
        _ = try state.setFocus(SetFocusParams(focus: nil as FocusUpdate?, uid: F.user.uid), caller: F.admin, now: F.now + 60)
        try state.focusOn(Self.work, now: F.now + 60)
        #expect(try state.update("again", now: F.now + 60).result.delivery.codes == ["silencedByFocus"])
        // A minute after the conversation's last alert, past the burst cooldown's window.
        #expect(try state.update("again", now: F.now + 120).result.delivery.codes == ["notifiedAnyway", "delivered"])
    }

    @Test func withoutNotifyAnywayASilencedConversationStaysSilenced() throws {
        var state = F.state()
        try state.focusOn(Self.work)
        try state.donate(F.message("a"))
        try state.donate(F.message("b"))
        #expect(try state.update("a").result.delivery.codes == ["silencedByFocus"])
        #expect(try state.update("b").result.delivery.codes == ["silencedByFocus"])
    }

    @Test func mentionsBreakThroughWhenAllowed() throws {
        var mentions = Self.work
        mentions.allowMentions = true
        let mention = F.message(metadata: .init(mentionsCurrentUser: true))
        #expect(try deliver(nil, focus: mentions, interaction: mention).codes == ["mentionAllowedByFocus", "delivered"])
        #expect(try deliver(nil, focus: Self.work, interaction: mention).codes == ["silencedByFocus"])
        let reply = F.message(metadata: .init(isReplyToCurrentUser: true))
        #expect(try deliver(nil, focus: mentions, interaction: reply).codes == ["mentionAllowedByFocus", "delivered"])
    }

    @Test func theSummaryHoldsAllButCommunicationTimeSensitiveAndCritical() throws {
        let summary: (inout HeraldState) throws -> Void = { state in
            _ = try state.setSummary(.init(apps: [F.app], times: ["08:00", "18:00"], uid: 1000), caller: F.admin, now: F.now)
            _ = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now)
        }
        // F.now is 2027-01-15T08:00:00Z.
        let held = try deliver(nil, configure: summary)
        #expect(held.presentation == .summary)
        #expect(held.deliverAt == F.now + 10 * 3600)
        #expect(held.codes == ["heldForSummary"])
        #expect(!held.sound && !held.lightsScreen)
        #expect(try deliver(.passive, configure: summary).codes == ["passive"])
        let message = try deliver(nil, interaction: F.message(), configure: summary)
        #expect(message.codes == ["communicationBreaksThroughSummary", "delivered"])
        #expect(message.breaksThroughSummary && message.presentation == .alert)
        #expect(try deliver(.timeSensitive, configure: summary).codes == ["timeSensitiveBreaksThroughSummary", "delivered"])
        #expect(try deliver(.critical, configure: summary).codes == ["criticalBreaksThroughSummary", "delivered"])
        var apps = Self.work
        apps.allowedApps = [F.app]
        let both = try deliver(nil, focus: apps, configure: summary)
        #expect(both.codes == ["appAllowedByFocus", "heldForSummary"])
        #expect(both.breaksThroughFocus && both.presentation == .summary)
    }

    @Test func aFocusEndsByItself() throws {
        var state = F.state()
        var until = Self.work
        until.until = F.now + 60
        try state.focusOn(until)
        #expect(state.nextFocusChange == F.now + 60)
        #expect(try state.update(nil, now: F.now + 59).result.delivery.codes == ["silencedByFocus"])
        #expect(try state.update(nil, now: F.now + 60).result.delivery.codes == ["delivered"])
        #expect(state.nextFocusChange == nil)
    }

    private func reason(_ code: DeliveryReasonCode) -> DeliveryReason {
        let messages: [DeliveryReasonCode: String] = [
            .passive: "Passive notifications are delivered quietly: no sound, no light, and they break through nothing.",
            .silencedByFocus: "The Focus \u{201C}Work\u{201D} is on and does not allow this notification, so it is delivered quietly.",
        ]
        return DeliveryReason(code: code, message: messages[code]!)
    }
}
