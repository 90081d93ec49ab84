import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// Issue 31: the conversations the person muted or marked priority survive a snapshot.
@Suite("Controlled conversations in a snapshot")
struct ConversationsSectionTests {
    typealias F = SnapshotFixtures

    @Test("Mutes, their ends and priority come back as they were, and an ended mute stays ended")
    func roundTrip() throws {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        let set = { (state: inout HeraldState, conversation: String, mute: ConversationMute?, priority: Bool?, caller: Caller) in
            _ = try state.setConversation(
                SetConversationParams(app: F.app, conversationIdentifier: conversation, mute: mute, priority: priority), caller: caller, now: F.now)
        }
        try set(&state, "c-hour", ConversationMute(seconds: 3600.25), nil, F.user)
        try set(&state, "c-ever", ConversationMute(forever: true), true, F.user)
        try set(&state, "c-vip", nil, true, F.otherUser)

        var back = try SnapshotFile.decode(try F.file(state)).state
        #expect(back.storedConversations == state.storedConversations)
        let mine = try back.listConversations(ListConversationsParams(), caller: F.user, now: F.now).result.conversations
        #expect(mine == [
            ConversationControl(app: F.app, conversationIdentifier: "c-ever", muted: true, priority: true),
            ConversationControl(app: F.app, conversationIdentifier: "c-hour", muted: true, mutedUntil: F.now + 3600.25),
        ])
        let later = try back.listConversations(ListConversationsParams(), caller: F.user, now: F.now + 3601).result.conversations
        #expect(later.map(\.conversationIdentifier) == ["c-ever"], "the hour's mute ended by itself")
        back.configuration = state.configuration
        #expect(try back.listConversations(ListConversationsParams(), caller: F.otherUser, now: F.now).result.conversations.map(\.priority) == [true])
    }

    @Test("A conversation twice, or one that decides nothing, is damage")
    func damage() throws {
        var state = HeraldState()
        let twice = [
            HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: "c", priority: true),
            HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: "c", mutedForever: true),
        ]
        let restoredTwice = state.restoreConversations(twice)
        let restoredNothing = state.restoreConversations([HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: "c")])
        let restoredBoth = state.restoreConversations([
            HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: "c", mutedUntil: F.now, mutedForever: true)
        ])
        #expect(!restoredTwice && !restoredNothing && !restoredBoth)
        let restoredTwoUIDs = state.restoreConversations([
            twice[0], HeraldState.StoredConversation(uid: 1001, app: F.app, conversationIdentifier: "c", priority: true),
        ])
        #expect(restoredTwoUIDs && state.storedConversations.count == 2)
    }
}
