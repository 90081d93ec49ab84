import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 45, item 2: an undone removal comes back as today's Focus, mutes and cooldown
/// decide, with reason `restored` beside theirs, and never with sound.
@Suite struct RestoredDeliveryTests {
    typealias F = Fixtures

    /// A message of `conversation` from `sender`, made a notification at `seconds`; its codes.
    @discardableResult
    private func message(_ identifier: String, from sender: Person, conversation: String, at seconds: Double, state: inout HeraldState) throws
        -> [String]
    {
        try state.donate(F.message(identifier, sender: sender, conversation: conversation), now: F.now + seconds)
        return try state.update(identifier, now: F.now + seconds).result.delivery.codes
    }

    /// Removes every notification of the chat app at `removeAt`, undoes it at `undoAt`; the
    /// restored ones as the presenters get them, by conversation (else title).
    private func removeAndUndo(at removeAt: Double, undoAt: Double, state: inout HeraldState) throws -> [String: Delivery] {
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, all: true), caller: F.user, now: F.now + removeAt)
        let (outcome, delivered) = try state.restoreNotifications(RestoreNotificationsParams(), caller: F.user, now: F.now + undoAt)
        #expect(outcome.result.restored == delivered.count)
        return Dictionary(uniqueKeysWithValues: delivered.map { ($0.notification.content.communication?.conversationIdentifier ?? $0.notification.content.title ?? "", $0.notification.delivery) })
    }

    @Test func underAFocusAndAMuteSilencedStaysSilencedAndMutedStaysQuiet() throws {
        var state = F.state()
        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.user)
        try state.focusOn(FocusConfiguration(name: "Work", allowedPeople: [F.ann]))
        _ = try state.setConversation(
            SetConversationParams(app: F.app, conversationIdentifier: "trip", mute: ConversationMute(forever: true)), caller: F.user, now: F.now)
        #expect(try message("m1", from: F.bo, conversation: "bo", at: 1, state: &state) == ["silencedByFocus"])
        #expect(try message("m2", from: F.ann, conversation: "trip", at: 2, state: &state) == ["senderAllowedByFocus", "conversationMuted"])
        #expect(try message("m3", from: F.ann, conversation: "ann", at: 3, state: &state) == ["senderAllowedByFocus", "delivered"])

        let back = try removeAndUndo(at: 10, undoAt: 20, state: &state)
        #expect(back["bo"]?.presentation == .quiet && back["bo"]?.codes == ["restored", "silencedByFocus"])
        #expect(back["trip"]?.presentation == .quiet && back["trip"]?.codes == ["restored", "senderAllowedByFocus", "conversationMuted"])
        #expect(back["ann"]?.presentation == .alert && back["ann"]?.codes == ["restored", "senderAllowedByFocus", "delivered"])
        #expect(back.count == 3 && back.values.allSatisfy { !$0.sound })
        // The list keeps what the presenters were told.
        let listed = try state.listNotifications(ListNotificationsParams(app: F.app), caller: F.user).result.notifications
        #expect(Set(listed.map { $0.delivery.codes.first }) == ["restored"])
        // Counted as the Focus's, once: this activation counted Bo's when it came.
        let running = try #require(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 21).result.running)
        #expect(running.total == 1)
    }

    @Test func aFocusTurnedOnSinceDecidesWhatWasAnAlert() throws {
        var state = F.state()
        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.user)
        #expect(try message("m1", from: F.bo, conversation: "bo", at: 1, state: &state) == ["delivered"])
        try state.focusOn(FocusConfiguration(name: "Work", allowedPeople: [F.ann]), now: F.now + 5)
        let back = try removeAndUndo(at: 10, undoAt: 20, state: &state)
        #expect(back["bo"]?.presentation == .quiet && back["bo"]?.codes == ["restored", "silencedByFocus"])
        let running = try #require(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 21).result.running)
        #expect(running.total == 1, "counted as the Focus's, which silenced it")
        // And off again, an undone removal is an alert without sound.
        _ = try state.setFocus(SetFocusParams(focus: nil as FocusUpdate?), caller: F.user, now: F.now + 30)
        let again = try removeAndUndo(at: 40, undoAt: 50, state: &state)
        #expect(again["bo"]?.presentation == .alert && again["bo"]?.sound == false && again["bo"]?.codes == ["restored", "delivered"])
    }

    @Test func theCooldownDecidesAsForAnyAlert() throws {
        var state = F.state()
        _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: "a", content: F.content(title: "A")), caller: F.user, now: F.now)
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "b", content: F.content(title: "B")), caller: F.user, now: F.now + 100)
        let back = try removeAndUndo(at: 200, undoAt: 300, state: &state)
        #expect(back["A"]?.presentation == .alert && back["A"]?.codes == ["restored", "delivered"])
        #expect(back["B"]?.presentation == .alert && back["B"]?.codes == ["restored", "delivered", "cooledDown"] && back["B"]?.announce == false)
    }
}
