import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// `update-content`: takes the content (or the APNs payload's), makes it a communication
    /// notification when it names a donated interaction, and decides its delivery.
    ///
    /// `payloadContent` is `p.payload` as the protocol layer maps it (`APNsPayload`, which
    /// also refuses a payload that is not mutable): the rules never read JSON.
    ///
    /// The notification goes into the caller's list (``NotificationList``): delivered at
    /// once unless held for the summary, replacing one with the same (app, identifier).
    ///
    /// Errors: interaction not found for an interaction this (uid, app) never donated —
    /// another uid's or app's gets exactly the same error, so existence never leaks;
    /// cannot provide content for an outgoing one; capability required for critical
    /// without the critical capability, or an interaction without the communication
    /// capability; a list full of scheduled notifications (`--max-notifications`).
    package mutating func updateContent(
        _ p: UpdateContentParams, payloadContent: NotificationContent? = nil, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<UpdateContentResult>
    {
        try updateContentListing(p, payloadContent: payloadContent, caller: caller, now: now).outcome
    }

    /// `update-content`, with what it did to the notification list, for the server to finish
    /// after the state's lock: the presenters' copy of the notification is made from it, and
    /// the notification it took out (at `--max-notifications` every new one evicts one) is
    /// freed when it is dropped.
    package mutating func updateContentListing(
        _ p: UpdateContentParams, payloadContent: NotificationContent? = nil, decoded: DecodedInteraction? = nil, caller: Caller, now: Date
    ) throws(RuleError)
        -> (outcome: MethodOutcome<UpdateContentResult>, listing: NotificationListing)
    {
        try AppName.validate(p.app)
        if let app = caller.app, p.gateway != nil {
            throw RuleError(
                .permissionDenied,
                "gateway is for the person's own gateway (herald-notify): app \(app.id), verified by \(app.source.evidence), speaks for itself.",
                at: ["gateway"]
            )
        }
        let identifier = try NotificationIdentifier.validated(p.identifier)
        advanceFocus(uid: caller.uid, now: now)
        var audit = AuditRecord(app: p.app, interactionIdentifier: p.interactionIdentifier)

        var (content, levelPath, scorePath) = try Self.givenContent(p, payloadContent: payloadContent)
        if let score = content.relevanceScore, !(0...1).contains(score) {
            throw .invalidParams("relevanceScore is from 0 to 1.", at: scorePath)
        }
        let capabilities = settings.capabilities(uid: caller.uid, app: p.app)
        let level = content.interruptionLevel ?? .active
        if level == .critical, !capabilities.critical {
            throw RuleError(
                .capabilityRequired,
                "\(p.app) lacks the critical capability; an administrator grants it with set-capabilities.",
                at: levelPath
            )
        }

        var decision = appDecision(uid: caller.uid, app: p.app, level: level, timeSensitivePermitted: capabilities.timeSensitive, now: now)
        let focus = focuses[caller.uid]
        let activeFocus = focus.currentConfiguration

        var silencedConversation: SilencedConversations.Conversation?
        var communication: Communication?
        if let identifier = p.interactionIdentifier {
            guard let key = interactions.key(uid: caller.uid, app: p.app, identifier: identifier),
                let stored = interactions[key]
            else {
                throw RuleError(
                    .interactionNotFound,
                    Self.notFoundReason(identifier, cause: interactions.forgotten.cause(uid: caller.uid, app: p.app, identifier: identifier)),
                    at: ["interactionIdentifier"]
                )
            }
            // The store keeps it as its record's bytes: decoded before the lock when the
            // server could, else here, once.
            let interaction = decoded.flatMap { $0.sequence == stored.sequence ? $0.interaction : nil } ?? stored.interaction
            audit.describe(interaction)
            guard interaction.direction == .incoming else {
                throw RuleError(
                    .cannotProvideContent,
                    "Interaction \(identifier) is outgoing; only incoming interactions provide notification content.",
                    at: ["interactionIdentifier"]
                )
            }
            guard capabilities.communication else {
                throw RuleError(
                    .capabilityRequired, "\(p.app) lacks the communication capability; the uid (or an administrator) grants it with set-capabilities.",
                    at: ["interactionIdentifier"]
                )
            }
            let matching = decoded.flatMap { $0.sequence == stored.sequence ? $0.communicationContent : nil }
            content = matching ?? CommunicationContent.make(from: content, for: interaction)
            decision.isCommunication = true
            communication = Communication(key: key, stored: stored, interaction: interaction)
            if let activeFocus, let facts = decision.focus {
                decision.focus = focusFacts(facts, focus: activeFocus, allowing: focus, stored: stored, interaction: interaction, key: key)
            }
            if case .sendMessage(let message) = interaction.intent {
                let conversation = SilencedConversations.Conversation(
                    uid: caller.uid,
                    app: p.app,
                    conversationIdentifier: message.conversationIdentifier
                )
                if message.donationMetadata?.notifyRecipientAnyway == true {
                    let silencedBefore = silenced.contains(conversation, activation: focus.current?.activation ?? 0)
                    decision.focus?.notifiedAnyway = silencedBefore
                    decision.focus?.notifyAnywayIgnored = !silencedBefore
                }
                silencedConversation = conversation
            }
            if case .sendMessage(let message) = interaction.intent,
                let control = conversationControl(uid: caller.uid, app: p.app, conversationIdentifier: message.conversationIdentifier, now: now)
            {
                decision.focus?.priorityConversation = control.priority
                decision.conversationMute = control.mute(at: now).map { mute in
                    if case .until(let end) = mute { DeliveryDecision.ConversationMuteFact(until: end) } else { DeliveryDecision.ConversationMuteFact() }
                }
            }
        }

        var delivery = decision.decide()
        coolDown(
            &delivery, uid: caller.uid, app: p.app, conversationIdentifier: silencedConversation?.conversationIdentifier, level: level,
            communication: communication, now: now)
        if let reason = unknownCategoryReason(content.categoryIdentifier, uid: caller.uid, app: p.app) {
            delivery.reasons.insert(reason, at: 0)
        }
        let grantHonoured = p.grant.map { settleGrant($0, uid: caller.uid, app: p.app, delivery: &delivery, audit: &audit, now: now) }
        let held = delivery.presentation == .summary
        let notification = HeraldNotification(
            identifier: identifier, app: p.app, content: content, delivery: delivery,
            state: held ? .scheduled : .delivered, receivedAt: now, deliveredAt: held ? nil : now
        )
        let inserted = try notifications.insert(
            notification, uid: caller.uid, limit: configuration.maxNotificationsPerUID, byteLimit: configuration.maxNotificationBytesPerUID)
        audit.notificationIdentifier = identifier
        audit.gateway = p.gateway?.name.rawValue
        audit.gatewayAppVerifiedBy = p.gateway?.appVerifiedBy?.rawValue
        let silencedBy = delivery.reasons.first { $0.code == .silencedByFocus }
        if let silencedConversation, silencedBy != nil {
            if !silenced.mark(silencedConversation, activation: focus.current?.activation ?? 0, limit: configuration.maxSilencedMarksPerUID) {
                fairShares.silencedMarksRefused += 1
            }
        }
        if silencedBy != nil { countSilencedByFocus(notification, uid: caller.uid, now: now) }
        audit.presentation = delivery.presentation.rawValue
        audit.reasons = delivery.reasons.map(\.code.rawValue)
        audit.silencedCauses = silencedBy?.causes?.map(\.rawValue) ?? []
        audit.focus = silencedBy != nil ? activeFocus?.name : nil
        let listing = NotificationListing(receivedAt: inserted.receivedAt, deliveredAt: notification.deliveredAt, removed: inserted.removed)
        // The answer says whether the sandbox vouched for the app; the list keeps the decision.
        var answered = delivery
        answered.appVerifiedBy = caller.app?.source.rawValue ?? p.gateway?.appVerifiedBy?.rawValue
        let result = UpdateContentResult(identifier: identifier, content: content, delivery: answered, grantHonoured: grantHonoured)
        return (MethodOutcome(result: result, audit: audit), listing)
    }

    /// The content `update-content` starts from, without `communication` (the rules add
    /// their own), and where its interruption level and relevance score are in the params:
    /// `p.content`, or the APNs payload's (`payloadContent`), never both.
    static func givenContent(_ p: UpdateContentParams, payloadContent: NotificationContent?) throws(RuleError)
        -> (content: NotificationContent, levelPath: MemberPath, scorePath: MemberPath)
    {
        var content: NotificationContent
        let levelPath: MemberPath
        let scorePath: MemberPath
        let payload = p.payload.flatMap { $0.isNull ? nil : $0 }
        switch (p.content, payload) {
        case (let given?, nil):
            content = given
            levelPath = ["content", "interruptionLevel"]
            scorePath = ["content", "relevanceScore"]
        case (nil, _?):
            guard let payloadContent else {
                throw .invalidParams("The payload was given but not read as an APNs payload.", at: ["payload"])
            }
            content = payloadContent
            levelPath = ["payload", "aps", "interruption-level"]
            scorePath = ["payload", "aps", "relevance-score"]
        case (nil, nil):
            throw .invalidParams("Give the notification's content, or an APNs payload.", at: ["content"])
        case (_?, _?):
            throw .invalidParams("Give content or payload, not both.", at: ["payload"])
        }
        content.communication = nil
        return (content, levelPath, scorePath)
    }

    /// The decision's facts for a notification of `app` at `level` that is not a
    /// communication: the uid's Focus in effect and its summary. A communication adds its
    /// interaction's facts to them.
    func appDecision(uid: UInt32, app: String, level: InterruptionLevel, timeSensitivePermitted: Bool, now: Date) -> DeliveryDecision {
        var decision = DeliveryDecision(
            app: app,
            level: level,
            timeSensitivePermitted: timeSensitivePermitted,
            repeatedCallWindow: configuration.repeatedCallWindow
        )
        if let activeFocus = focuses[uid].currentConfiguration {
            decision.focus = DeliveryDecision.FocusFacts(
                name: activeFocus.name,
                allowsTimeSensitive: activeFocus.allowTimeSensitive,
                appAllowed: activeFocus.allowedApps.contains(app),
                silencesNamed: activeFocus.silencesNamed,
                appSilenced: activeFocus.silencedApps?.contains(app) ?? false
            )
        }
        if let summary = summaries[uid], summary.holds(app) {
            decision.nextSummary = summary.nextDelivery(after: now, in: configuration.timeZone)
        }
        return decision
    }

    /// Why no interaction `identifier` is there: never donated (as far as Herald knows), or
    /// forgotten, and how. Only the caller's own (uid, app) is looked up, so the reason
    /// tells nothing of anyone else's.
    static func notFoundReason(_ identifier: String, cause: ForgottenInteractions.Cause?) -> String {
        switch cause {
        case nil: "This app donated no interaction \(identifier); donate it before providing its content."
        case .deleted?: "Interaction \(identifier) was deleted (delete-interactions); donate it again before providing its content."
        case .expired?: "Interaction \(identifier) was forgotten when its retention ended (--retention); donate it again before providing its content."
        case .evicted?:
            "Interaction \(identifier) was forgotten to keep this uid within its share (--max-interactions-per-uid, --max-interactions); donate it again before providing its content."
        }
    }

    /// The Focus facts that depend on the interaction: the allowed sender, a repeated
    /// call, a mention or reply.
    private func focusFacts(
        _ facts: DeliveryDecision.FocusFacts,
        focus activeFocus: FocusConfiguration,
        allowing focus: FocusState,
        stored: StoredInteraction,
        interaction: Interaction,
        key: InteractionKey
    ) -> DeliveryDecision.FocusFacts {
        var facts = facts
        switch interaction.intent {
        case .sendMessage(let message):
            facts.senderAllowed = message.sender.map(focus.allows) ?? false
            facts.senderSilenced = message.sender.map(focus.silences) ?? false
            let metadata = message.donationMetadata
            let mentioned = metadata?.mentionsCurrentUser == true || metadata?.isReplyToCurrentUser == true
            facts.mentionAllowed = activeFocus.allowMentions && mentioned
        case .startCall(let call):
            guard let caller = call.contacts.first else { break }
            facts.senderAllowed = focus.allows(caller)
            facts.senderSilenced = focus.silences(caller)
            facts.repeatedCall = activeFocus.allowRepeatedCalls && isRepeatedCall(key, stored, interaction)
            facts.repeatedCallFromAnotherApp =
                activeFocus.allowRepeatedCalls && !facts.repeatedCall
                && interactions.calls.hasEarlierCall(
                    than: key, caller: caller, date: stored.effectiveDate, window: configuration.repeatedCallWindow, inAnotherApp: true)
        }
        return facts
    }
}

/// The interaction an `update-content` names, decoded from its record outside the state's
/// lock, and the communication content made from it and the request's content
/// (``CommunicationContent``): the rules take both when the store still holds that
/// donation (the same sequence), and decode and make them again under the lock otherwise.
/// Either is work the lock would otherwise be held for while every event loop waits on it
/// (docs/performance.md, "Stored interactions as their records").
package struct DecodedInteraction: Sendable {
    let sequence: UInt64
    let interaction: Interaction
    /// `CommunicationContent.make` of the given content (``HeraldState/givenContent(_:payloadContent:)``),
    /// nil when the params give none the rules would take (they refuse the request).
    let communicationContent: NotificationContent?
}

extension HeraldState {
    /// The record `update-content` would name, to decode after the lock: a copy of its
    /// bytes' reference and its sequence, nothing decoded under the lock.
    package func storedRecord(uid: UInt32, app: String, identifier: String) -> (sequence: UInt64, record: EncodedInteraction)? {
        guard let key = interactions.key(uid: uid, app: app, identifier: identifier), let stored = interactions[key] else { return nil }
        return (stored.sequence, stored.record)
    }
}

extension DecodedInteraction {
    /// Decodes `found`'s record and makes the communication content `p` would get from it.
    package init(_ found: (sequence: UInt64, record: EncodedInteraction), for p: UpdateContentParams, payloadContent: NotificationContent?) {
        let interaction = found.record.interaction
        let given = try? HeraldState.givenContent(p, payloadContent: payloadContent).content
        self.init(
            sequence: found.sequence, interaction: interaction,
            communicationContent: given.map { CommunicationContent.make(from: $0, for: interaction) })
    }
}
