import FoundationEssentials
import HeraldProtocol

/// How a notification is delivered, decided in the order, each step that
/// mattered leaving a reason:
///
/// 0. A timeSensitive notification from an app without the capability is treated as
///    active (`timeSensitiveNotPermitted`).
/// 1. passive: quiet, no sound, no light, breaks through nothing (`passive`).
/// 2. While a Focus is on, the first of these breaks through it (``focusOrder``):
///    critical; timeSensitive with a Focus that allows it; not named by a Focus that
///    silences only whom it names; an allowed app; an allowed sender; a priority
///    conversation; a repeated call; notify-anyway after a silenced message; a mention or
///    reply with a Focus that allows mentions. Otherwise quiet (`silencedByFocus`).
/// 3. For an app sent to the scheduled summary: communication, timeSensitive and
///    critical break through it; the rest waits for the next summary (`heldForSummary`),
///    silenced by a Focus or not: the Focus filters how it is presented, the summary when
///    it arrives, so both apply and both are named.
/// 4. A conversation the person muted, unless critical: quiet (`conversationMuted`).
/// 5. Otherwise an alert (`delivered`): sound and light; bypassing the ringer when
///    critical; announced when a communication or timeSensitive.
///
/// The interruption-level table of the seeds is what steps 1 and 5 implement.
struct DeliveryDecision {
    /// What the Focus in effect lets through for this notification: each member already
    /// combines the Focus's setting with the fact (for example `repeatedCall` is true
    /// only when the Focus allows repeated calls and the caller called before).
    struct FocusFacts: Sendable, Hashable {
        var name: String
        var allowsTimeSensitive = true
        var appAllowed = false
        var senderAllowed = false
        /// The Focus silences only those it names (`silencedPeople`, `silencedApps`).
        var silencesNamed = false
        var appSilenced = false
        var senderSilenced = false
        var repeatedCall = false
        var notifiedAnyway = false
        var mentionAllowed = false
        /// The sender asked to notify anyway, but this Focus silenced no earlier message
        /// of the conversation, so the request does not count.
        var notifyAnywayIgnored = false
        /// The caller called within the window through another app: repeated calls count
        /// per app, so this one does not break through.
        var repeatedCallFromAnotherApp = false
        /// The person marked the message's conversation priority (`set-conversation`).
        var priorityConversation = false
    }

    /// The person muted the message's conversation (`set-conversation`): until `until`,
    /// or until unmuted when nil.
    struct ConversationMuteFact: Sendable, Hashable {
        var until: Date?
    }

    var app: String
    var level: InterruptionLevel
    var timeSensitivePermitted = true
    var isCommunication = false
    /// Nil while no Focus is on.
    var focus: FocusFacts?
    /// The next summary time when the app goes to the scheduled summary.
    var nextSummary: Date?
    var repeatedCallWindow: TimeInterval = 180
    /// Nil unless the person muted the conversation, and the mute has not ended.
    var conversationMute: ConversationMuteFact?

    /// The reasons that let a notification through a Focus, first first: `decide()`'s
    /// order, as Protocol/README.md and Protocol/DELIVERY.md list it (a test compares them).
    static let focusOrder: [DeliveryReasonCode] = [
        .criticalBreaksThroughFocus, .timeSensitiveAllowedByFocus, .notSilencedByFocus, .appAllowedByFocus, .senderAllowedByFocus,
        .priorityConversation, .repeatedCall, .notifiedAnyway, .mentionAllowedByFocus,
    ]

    func decide() -> Delivery {
        var reasons: [DeliveryReason] = []
        var level = self.level
        if level == .timeSensitive, !timeSensitivePermitted {
            level = .active
            reasons.append(
                reason(.timeSensitiveNotPermitted, "\(app) lacks the timeSensitive capability, so this notification is treated as active."))
        }

        if level == .passive {
            reasons.append(
                reason(.passive, "Passive notifications are delivered quietly: no sound, no light, and they break through nothing."))
            return Delivery(presentation: .quiet, reasons: reasons)
        }

        var breaksThroughFocus = false
        if let focus {
            let named = "the Focus \u{201C}\(focus.name)\u{201D}"
            let through: DeliveryReason? =
                if level == .critical {
                    reason(.criticalBreaksThroughFocus, "Critical notifications break through \(named).")
                } else if level == .timeSensitive, focus.allowsTimeSensitive {
                    reason(.timeSensitiveAllowedByFocus, "\(named.capitalizedFirst) allows Time Sensitive notifications.")
                } else if focus.silencesNamed, !focus.appSilenced, !focus.senderSilenced {
                    reason(
                        .notSilencedByFocus,
                        "\(named.capitalizedFirst) silences only the people and apps it names, and this notification is from none of them.")
                } else if focus.appAllowed {
                    reason(.appAllowedByFocus, "\(named.capitalizedFirst) allows notifications from \(app).")
                } else if focus.senderAllowed {
                    reason(.senderAllowedByFocus, "\(named.capitalizedFirst) allows notifications from this sender.")
                } else if focus.priorityConversation {
                    reason(.priorityConversation, "You marked this conversation priority, so it breaks through \(named) like an allowed person.")
                } else if focus.repeatedCall {
                    reason(
                        .repeatedCall,
                        "The same caller called within the last \(Int(repeatedCallWindow)) seconds, and \(named) allows repeated calls.")
                } else if focus.notifiedAnyway {
                    reason(
                        .notifiedAnyway,
                        "The sender chose to notify anyway after \(named) silenced an earlier message of this conversation.")
                } else if focus.mentionAllowed {
                    reason(.mentionAllowedByFocus, "The message mentions or replies to you, and \(named) allows mentions.")
                } else {
                    nil
                }
            guard let through else {
                reasons.append(silenced(focus, named: named, level: level))
                if let nextSummary, !isCommunication, level == .active {
                    reasons.append(heldForSummary)
                    return Delivery(presentation: .summary, deliverAt: nextSummary, reasons: reasons)
                }
                return Delivery(presentation: .quiet, reasons: reasons)
            }
            reasons.append(through)
            breaksThroughFocus = true
        }

        var breaksThroughSummary = false
        if let nextSummary {
            if isCommunication {
                reasons.append(
                    reason(.communicationBreaksThroughSummary, "Communication notifications break through the scheduled summary."))
            } else if level == .timeSensitive {
                reasons.append(
                    reason(.timeSensitiveBreaksThroughSummary, "Time Sensitive notifications break through the scheduled summary."))
            } else if level == .critical {
                reasons.append(reason(.criticalBreaksThroughSummary, "Critical notifications break through the scheduled summary."))
            } else {
                reasons.append(heldForSummary)
                return Delivery(presentation: .summary, deliverAt: nextSummary, breaksThroughFocus: breaksThroughFocus, reasons: reasons)
            }
            breaksThroughSummary = true
        }

        if let conversationMute, level != .critical {
            reasons.append(mutedReason(conversationMute))
            return Delivery(
                presentation: .quiet, breaksThroughFocus: breaksThroughFocus, breaksThroughSummary: breaksThroughSummary, reasons: reasons)
        }

        let bypassesRinger = level == .critical
        let announce = isCommunication || level == .timeSensitive
        // Whole literals, not joined pieces: a literal needs no allocation, and this
        // sentence is kept with every delivered notification in the list.
        let message =
            switch (bypassesRinger, announce) {
            case (false, false): "Delivered as an alert, with sound and light."
            case (true, false): "Delivered as an alert, with sound and light, bypassing the ringer."
            case (false, true): "Delivered as an alert, with sound and light, and announced."
            case (true, true): "Delivered as an alert, with sound and light, bypassing the ringer, and announced."
            }
        reasons.append(reason(.delivered, message))
        return Delivery(
            presentation: .alert,
            sound: true,
            lightsScreen: true,
            breaksThroughFocus: breaksThroughFocus,
            breaksThroughSummary: breaksThroughSummary,
            bypassesRinger: bypassesRinger,
            announce: announce,
            reasons: reasons
        )
    }

    /// Why the Focus held it back: simply "not allowed", or the rules that held it back
    /// when one came close, as causes for programs and in the sentence — never a person or
    /// the content.
    private func silenced(_ focus: FocusFacts, named: String, level: InterruptionLevel) -> DeliveryReason {
        var causes: [SilencedCause] = []
        var clauses: [String] = []
        if focus.appSilenced {
            causes.append(.appSilenced)
            clauses.append("silences \(app) (its silenced apps)")
        }
        if focus.senderSilenced {
            causes.append(.senderSilenced)
            clauses.append("silences this sender (its silenced people)")
        }
        if level == .timeSensitive {
            causes.append(.timeSensitiveNotAllowed)
            clauses.append("does not allow Time Sensitive notifications")
        }
        if focus.notifyAnywayIgnored {
            causes.append(.notifyAnywayIgnored)
            clauses.append(
                "the sender's notify-anyway was ignored because \(named) silenced no earlier message of this conversation")
        }
        if focus.repeatedCallFromAnotherApp {
            causes.append(.repeatedCallFromAnotherApp)
            clauses.append(
                "the same caller called within the last \(Int(repeatedCallWindow)) seconds, but through another app, and repeated calls count per app")
        }
        let held = clauses.isEmpty ? "does not allow this notification" : clauses.joined(separator: "; ")
        return DeliveryReason(
            code: .silencedByFocus,
            message: "\(named.capitalizedFirst) is on and \(held), so it is delivered quietly.",
            causes: causes.isEmpty ? nil : causes
        )
    }

    /// The person's mute, apart from any Focus, and when it ends.
    private func mutedReason(_ mute: ConversationMuteFact) -> DeliveryReason {
        let until = mute.until.map { "until \(RFC3339.format($0))" } ?? "until you unmute it"
        return reason(
            .conversationMuted,
            "You muted this conversation \(until), whatever Focus is on, so it is delivered quietly: no sound, no light, no banner.")
    }

    private var heldForSummary: DeliveryReason {
        reason(.heldForSummary, "\(app) goes to the scheduled summary, so this notification waits for the next one (deliverAt).")
    }

    private func reason(_ code: DeliveryReasonCode, _ message: String) -> DeliveryReason {
        DeliveryReason(code: code, message: message)
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }
}
