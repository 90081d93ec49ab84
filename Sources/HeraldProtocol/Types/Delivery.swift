import FoundationEssentials

/// How Herald delivers a notification, and why: the decision `update-content` returns.
package struct Delivery: Codable, Sendable, Hashable {
    package var presentation: Presentation
    /// For `summary`: the next summary time.
    package var deliverAt: Date?
    package var sound: Bool
    package var lightsScreen: Bool
    package var breaksThroughFocus: Bool
    package var breaksThroughSummary: Bool
    package var bypassesRinger: Bool
    package var announce: Bool
    /// One reason for each step of the decision that mattered, in the order taken.
    package var reasons: [DeliveryReason]
    /// In `update-content`'s answer: what verified the app that posted it (`flatpak`, `snap`,
    /// `systemd-unit`); absent when the app was only named, by the person.
    package var appVerifiedBy: String?

    package init(
        presentation: Presentation,
        deliverAt: Date? = nil,
        sound: Bool = false,
        lightsScreen: Bool = false,
        breaksThroughFocus: Bool = false,
        breaksThroughSummary: Bool = false,
        bypassesRinger: Bool = false,
        announce: Bool = false,
        reasons: [DeliveryReason] = []
    ) {
        self.presentation = presentation
        self.deliverAt = deliverAt
        self.sound = sound
        self.lightsScreen = lightsScreen
        self.breaksThroughFocus = breaksThroughFocus
        self.breaksThroughSummary = breaksThroughSummary
        self.bypassesRinger = bypassesRinger
        self.announce = announce
        self.reasons = reasons
    }
}

/// Where a notification goes.
package enum Presentation: String, JSONEnum, Hashable {
    /// Shown, with sound and light.
    case alert
    /// In the notification list only, without sound or light.
    case quiet
    /// Held for the next scheduled summary.
    case summary
}

/// One step of a delivery decision: a stable code for programs, a sentence for people.
package struct DeliveryReason: Codable, Sendable, Hashable {
    package var code: DeliveryReasonCode
    package var message: String
    /// With `silencedByFocus`: the rules that held the notification back when it was not
    /// simply "not allowed", in the order the message names them; absent otherwise.
    package var causes: [SilencedCause]?

    package init(code: DeliveryReasonCode, message: String, causes: [SilencedCause]? = nil) {
        self.code = code
        self.message = message
        self.causes = causes
    }
}

/// Why a Focus held a notification back when a rule came close to letting it through:
/// the machine-readable form of what a `silencedByFocus` message says.
package enum SilencedCause: String, JSONEnum, Hashable {
    /// A Time Sensitive notification, under a Focus that does not allow them.
    case timeSensitiveNotAllowed
    /// A message donated with `notifyRecipientAnyway`, but this Focus activation silenced
    /// no earlier message of its conversation.
    case notifyAnywayIgnored
    /// The same caller called within the repeated-call window, but through another app of
    /// the uid: repeated calls count per app.
    case repeatedCallFromAnotherApp
    /// The app is on the Focus's `silencedApps`.
    case appSilenced
    /// The sender is on the Focus's `silencedPeople`.
    case senderSilenced
}

/// The stable codes of delivery reasons, in the order the decision can take them.
package enum DeliveryReasonCode: String, JSONEnum, Hashable {
    case timeSensitiveNotPermitted
    case passive
    case criticalBreaksThroughFocus
    case timeSensitiveAllowedByFocus
    case appAllowedByFocus
    case senderAllowedByFocus
    case repeatedCall
    case notifiedAnyway
    case mentionAllowedByFocus
    case silencedByFocus
    case communicationBreaksThroughSummary
    case timeSensitiveBreaksThroughSummary
    case criticalBreaksThroughSummary
    case heldForSummary
    case delivered
    /// The content names a category its (uid, app) did not set: the notification has no
    /// actions. Given first, before the decision's own reasons.
    case unknownCategory
    /// A snoozed notification came back at its time: delivered again, given first.
    case snoozeEnded
    /// The Focus silences only the people and apps it names, and this notification is
    /// from none of them.
    case notSilencedByFocus
    /// The person undid the notification's removal (`restore-notifications`): delivered
    /// again without sound, as today's Focus, mutes and cooldown decide; given first.
    case restored
    /// The person muted the notification's conversation (`set-conversation`), whatever
    /// Focus is on: delivered quietly.
    case conversationMuted
    /// The person marked the notification's conversation priority (`set-conversation`),
    /// so it breaks through the Focus like an allowed person.
    case priorityConversation
    /// Burst cooldown: another notification of the same conversation (or app) alerted
    /// within the uid's cooldown window, so this alert comes without sound (`set-cooldown`).
    case cooledDown
}

/// Written directly: every `update-content` answers with it (see `JSONDirectEncodable`).
extension Delivery: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("presentation", presentation)
        members.add("deliverAt", deliverAt)
        members.add("sound", sound)
        members.add("lightsScreen", lightsScreen)
        members.add("breaksThroughFocus", breaksThroughFocus)
        members.add("breaksThroughSummary", breaksThroughSummary)
        members.add("bypassesRinger", bypassesRinger)
        members.add("announce", announce)
        members.add("reasons", reasons)
        members.add("appVerifiedBy", appVerifiedBy)
    }
}

extension DeliveryReason: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("code", code)
        members.add("message", message)
        members.add("causes", causes)
    }
}
