import Foundation
import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// Issue 31: a message of a conversation offers "Mute conversation 1 hour" after "Snooze
/// 1 hour"; herald-notify answers it with set-conversation, never the app.
@Suite struct MuteConversationMappingTests {
    typealias T = NotificationMappingTests

    @Test func aMessageOfAConversationOffersMuteAfterSnooze() throws {
        let message = NotificationContent(title: "Ann", communication: CommunicationInfo(type: .sendMessage, conversationIdentifier: "c-trip"))
        let bubble = try #require(NotificationMapping(capabilities: T.everything).bubble(for: T.notification(message)))
        #expect(bubble.arguments.actions == ["default", "Open", "herald-snooze", "Snooze 1 hour", "herald-mute-conversation", "Mute conversation 1 hour"])
        #expect(bubble.muteConversation == "c-trip" && bubble.actionKeys["herald-mute-conversation"] == nil, "herald-notify answers it")
    }

    @Test func noConversationNoActionsOrTheAppsOwnKeyNoMute() throws {
        let plain = try #require(NotificationMapping(capabilities: T.everything).bubble(for: T.notification(NotificationContent(title: "t"))))
        #expect(plain.muteConversation == nil && !plain.arguments.actions.contains("herald-mute-conversation"))
        let call = NotificationContent(title: "Bo", communication: CommunicationInfo(type: .startCall))
        #expect(try #require(NotificationMapping(capabilities: T.everything).bubble(for: T.notification(call))).muteConversation == nil)
        let message = NotificationContent(title: "Ann", communication: CommunicationInfo(type: .sendMessage, conversationIdentifier: "c-trip"))
        let noActions = try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).bubble(for: T.notification(message)))
        #expect(noActions.muteConversation == nil && noActions.arguments.actions.isEmpty)
        let own = [PresentedAction(identifier: "herald-mute-conversation", title: "Hush")]
        let taken = try #require(NotificationMapping(capabilities: T.everything).bubble(for: T.notification(message, actions: own)))
        #expect(taken.muteConversation == nil && taken.actionKeys["herald-mute-conversation"] == "herald-mute-conversation")
    }
}
