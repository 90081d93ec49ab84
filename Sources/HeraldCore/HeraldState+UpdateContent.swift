import Foundation
import HeraldProtocol

extension HeraldState {
    /// `update-content`: maps the content (or APNs payload), makes it a communication
    /// notification when it names a donated interaction, and decides its delivery.
    ///
    /// Errors: 1001 for an interaction this (uid, app) never donated — another uid's or
    /// app's gets exactly the same error, so existence never leaks; 1002 for an outgoing
    /// one; 1005 for critical without the critical capability, or an interaction without
    /// the communication capability; 1008 for a payload that is not mutable.
    public mutating func updateContent(
        _ p: UpdateContentParams, caller: Caller, now: Date
    ) throws(RPCError)
        -> MethodOutcome<UpdateContentResult>
    {
        try AppName.validate(p.app)
        expireFocus(now: now)
        var audit = AuditRecord(app: p.app, interactionIdentifier: p.interactionIdentifier)

        var content: NotificationContent
        let levelPointer: String
        let scorePointer: String
        let payload = p.payload.flatMap { $0.isNull ? nil : $0 }
        switch (p.content, payload) {
        case (let given?, nil):
            content = given
            levelPointer = "/content/interruptionLevel"
            scorePointer = "/content/relevanceScore"
        case (nil, let payload?):
            content = try APNsPayload.content(from: payload)
            levelPointer = "/payload/aps/interruption-level"
            scorePointer = "/payload/aps/relevance-score"
        case (nil, nil):
            throw .invalidParams("Give the notification's content, or an APNs payload.", at: "/content")
        case (_?, _?):
            throw .invalidParams("Give content or payload, not both.", at: "/payload")
        }
        content.communication = nil
        if let score = content.relevanceScore, !(0...1).contains(score) {
            throw .invalidParams("relevanceScore is from 0 to 1.", at: scorePointer)
        }
        let capabilities = settings.capabilities(uid: caller.uid, app: p.app)
        let level = content.interruptionLevel ?? .active
        if level == .critical, !capabilities.critical {
            throw RPCError(
                .capabilityRequired,
                reason: "\(p.app) lacks the critical capability; an administrator grants it with set-capabilities.",
                pointer: levelPointer
            )
        }

        var decision = DeliveryDecision(
            app: p.app,
            level: level,
            timeSensitivePermitted: capabilities.timeSensitive,
            repeatedCallWindow: configuration.repeatedCallWindow
        )
        let activeFocus = focus.active(at: now)
        if let activeFocus {
            decision.focus = DeliveryDecision.FocusFacts(
                name: activeFocus.name,
                allowsTimeSensitive: activeFocus.allowTimeSensitive,
                appAllowed: activeFocus.allowedApps.contains(p.app)
            )
        }
        if summary.holds(p.app) {
            decision.nextSummary = summary.nextDelivery(after: now, in: configuration.timeZone)
        }

        var silencedConversation: SilencedConversations.Conversation?
        if let identifier = p.interactionIdentifier {
            guard let key = interactions.key(uid: caller.uid, app: p.app, identifier: identifier),
                let stored = interactions[key]
            else {
                throw RPCError(
                    .interactionNotFound,
                    reason: "This app donated no interaction \(identifier); donate it before providing its content.",
                    pointer: "/interactionIdentifier"
                )
            }
            audit.describe(stored.interaction)
            guard stored.interaction.direction == .incoming else {
                throw RPCError(
                    .cannotProvideContent,
                    reason: "Interaction \(identifier) is outgoing; only incoming interactions provide notification content.",
                    pointer: "/interactionIdentifier"
                )
            }
            guard capabilities.communication else {
                throw RPCError(
                    .capabilityRequired,
                    reason: "\(p.app) lacks the communication capability; an administrator grants it with set-capabilities.",
                    pointer: "/interactionIdentifier"
                )
            }
            content = CommunicationContent.make(from: content, for: stored.interaction)
            decision.isCommunication = true
            if let activeFocus, let facts = decision.focus {
                decision.focus = focusFacts(facts, focus: activeFocus, stored: stored, key: key)
            }
            if case .sendMessage(let message) = stored.interaction.intent {
                let conversation = SilencedConversations.Conversation(
                    uid: caller.uid,
                    app: p.app,
                    conversationIdentifier: message.conversationIdentifier
                )
                if message.donationMetadata?.notifyRecipientAnyway == true,
                    silenced.contains(conversation, activation: focus.activation)
                {
                    decision.focus?.notifiedAnyway = true
                }
                silencedConversation = conversation
            }
        }

        let delivery = decision.decide()
        if let silencedConversation, delivery.reasons.last?.code == .silencedByFocus {
            if !silenced.mark(silencedConversation, activation: focus.activation, limit: configuration.maxSilencedMarksPerUID) {
                fairShares.silencedMarksRefused += 1
            }
        }
        audit.presentation = delivery.presentation.rawValue
        audit.reasons = delivery.reasons.map(\.code.rawValue)
        return MethodOutcome(result: UpdateContentResult(content: content, delivery: delivery), audit: audit)
    }

    /// The Focus facts that depend on the interaction: the allowed sender, a repeated
    /// call, a mention or reply.
    private func focusFacts(
        _ facts: DeliveryDecision.FocusFacts,
        focus activeFocus: FocusConfiguration,
        stored: StoredInteraction,
        key: InteractionKey
    ) -> DeliveryDecision.FocusFacts {
        var facts = facts
        switch stored.interaction.intent {
        case .sendMessage(let message):
            facts.senderAllowed = message.sender.map(focus.allows) ?? false
            let metadata = message.donationMetadata
            let mentioned = metadata?.mentionsCurrentUser == true || metadata?.isReplyToCurrentUser == true
            facts.mentionAllowed = activeFocus.allowMentions && mentioned
        case .startCall(let call):
            guard let caller = call.contacts.first else { break }
            facts.senderAllowed = focus.allows(caller)
            facts.repeatedCall =
                activeFocus.allowRepeatedCalls
                && interactions.calls.hasEarlierCall(
                    than: key,
                    caller: caller,
                    date: stored.effectiveDate,
                    window: configuration.repeatedCallWindow
                )
        }
        return facts
    }
}
