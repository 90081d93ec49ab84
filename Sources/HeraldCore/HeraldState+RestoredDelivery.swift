import FoundationEssentials
import HeraldProtocol

/// How a notification the person brought back (`restore-notifications`) is presented: as
/// today's Focus, the person's mutes and the burst cooldown decide (issue 45, item 2), never
/// as an alert merely because it was one when it came.
extension HeraldState {
    /// The delivery of `notification` (delivered, of `uid`) restored at `now`: the decision
    /// made again from what the notification itself says — its level, its app, its sender,
    /// its conversation — then the cooldown, always without sound, `restored` first.
    ///
    /// What only the interaction knew is taken from the first decision: a repeated call
    /// still counts if the Focus on allows repeated calls, a notify-anyway if this activation
    /// silenced its conversation. The summary is not asked again: a restored notification
    /// comes back delivered, as it was. One the Focus silences counts in its digest, unless
    /// this same activation silenced and counted it when it came.
    mutating func restoredDelivery(of notification: HeraldNotification, uid: UInt32, now: Date) -> Delivery {
        let app = notification.app
        let level = notification.content.interruptionLevel ?? .active
        let communication = notification.content.communication
        let earlier = Set(notification.delivery.reasons.map(\.code))
        var decision = DeliveryDecision(
            app: app, level: level, timeSensitivePermitted: settings.capabilities(uid: uid, app: app).timeSensitive,
            repeatedCallWindow: configuration.repeatedCallWindow)
        decision.isCommunication = communication != nil
        let focus = focuses[uid]
        let conversation = communication?.conversationIdentifier
        if let active = focus.currentConfiguration {
            var facts = DeliveryDecision.FocusFacts(
                name: active.name, allowsTimeSensitive: active.allowTimeSensitive, appAllowed: active.allowedApps.contains(app),
                silencesNamed: active.silencesNamed, appSilenced: active.silencedApps?.contains(app) ?? false)
            if let communication {
                facts.senderAllowed = communication.sender.map(focus.allows) ?? false
                facts.senderSilenced = communication.sender.map(focus.silences) ?? false
                facts.mentionAllowed = active.allowMentions && (communication.mentionsCurrentUser || communication.isReplyToCurrentUser)
                facts.repeatedCall = active.allowRepeatedCalls && earlier.contains(.repeatedCall)
            }
            if let conversation, earlier.contains(.notifiedAnyway) {
                let key = SilencedConversations.Conversation(uid: uid, app: app, conversationIdentifier: conversation)
                facts.notifiedAnyway = silenced.contains(key, activation: focus.current?.activation ?? 0)
            }
            decision.focus = facts
        }
        if let conversation, let control = conversationControl(uid: uid, app: app, conversationIdentifier: conversation, now: now) {
            decision.focus?.priorityConversation = control.priority
            decision.conversationMute = control.mute(at: now).map { mute in
                if case .until(let end) = mute { DeliveryDecision.ConversationMuteFact(until: end) } else { DeliveryDecision.ConversationMuteFact() }
            }
        }
        var delivery = decision.decide()
        coolDown(&delivery, uid: uid, app: app, conversationIdentifier: conversation, level: level, communication: nil, now: now)
        delivery.sound = false
        if let index = delivery.reasons.firstIndex(where: { $0.code == .delivered }) {
            delivery.reasons[index].message = "Delivered as an alert, with light but without sound: restored."
        }
        let restored = DeliveryReason(
            code: .restored,
            message: "You removed this notification and undid it: it is back in its place, without sound, presented as the Focus, mutes and cooldown in effect now decide.")
        delivery.reasons.insert(restored, at: 0)
        return delivery
    }
}
