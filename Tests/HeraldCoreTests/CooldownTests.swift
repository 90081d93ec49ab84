import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31: burst cooldown, as Android 15's — the notifications of one conversation (or
/// app) that follow an alert within the person's window arrive without sound.
@Suite struct CooldownTests {
    typealias F = Fixtures

    /// A plain notification of `app` at `seconds` after the fixed time.
    private func plain(
        _ state: inout HeraldState, at seconds: Double, app: String = F.app, level: InterruptionLevel? = nil, caller: Caller = F.user
    ) throws -> Delivery {
        try state.updateContent(UpdateContentParams(app: app, content: F.content(level)), caller: caller, now: F.now + seconds).result.delivery
    }

    /// A message of `conversation` donated and notified at `seconds`.
    private func message(_ state: inout HeraldState, _ identifier: String, conversation: String = "c1", at seconds: Double) throws -> Delivery {
        try state.donate(F.message(identifier, conversation: conversation), now: F.now + seconds)
        return try state.update(identifier, now: F.now + seconds).result.delivery
    }

    @Test func theFirstAlertsTheNextInTheWindowComeQuietlyAndAfterItAlertsAgain() throws {
        var state = F.state()
        let first = try message(&state, "m1", at: 0)
        #expect(first.codes == ["delivered"] && first.sound && first.announce)

        let second = try message(&state, "m2", at: 20)
        #expect(second.presentation == .alert && second.lightsScreen, "still delivered as an alert, shown")
        #expect(!second.sound && !second.announce)
        #expect(second.codes == ["delivered", "cooledDown"])
        #expect(second.reasons[0].message == "Delivered as an alert, with light but without sound: cooled down.")
        let sentence = second.reasons[1].message
        #expect(sentence.contains("This conversation") && sentence.contains(RFC3339.format(F.now)) && sentence.contains("60 seconds"), "\(sentence)")
        let listed = try state.listNotifications(ListNotificationsParams(app: F.app), caller: F.user).result.notifications
        #expect(listed.count == 2 && listed.allSatisfy { $0.state == .delivered }, "listed as it would be")

        // Each arrival extends the window: 79 s is within 60 of the one at 20 s.
        let third = try message(&state, "m3", at: 79)
        #expect(third.codes == ["delivered", "cooledDown"])
        #expect(third.reasons[1].message.contains(RFC3339.format(F.now)), "the burst still runs from its first alert")
        // A whole window without one: it alerts again, and starts a new burst.
        let fourth = try message(&state, "m4", at: 139)
        #expect(fourth.codes == ["delivered"] && fourth.sound)
        let fifth = try message(&state, "m5", at: 140)
        #expect(fifth.reasons.last?.message.contains(RFC3339.format(F.now + 139)) == true)
    }

    @Test func anotherConversationOrAppIsNotAffected() throws {
        var state = F.state()
        #expect(try message(&state, "m1", at: 0).sound)
        #expect(try message(&state, "m2", conversation: "c2", at: 1).sound, "another conversation of the same app")
        #expect(try plain(&state, at: 2).sound, "the app's own notifications, without a conversation, are their own source")
        let cooled = try plain(&state, at: 3)
        #expect(!cooled.sound && cooled.reasons.last?.message.hasPrefix("\(F.app) has sent notifications") == true)
        #expect(try plain(&state, at: 4, app: F.otherApp).sound, "another app")
        #expect(try !message(&state, "m3", at: 5).sound)
    }

    @Test func eachUIDHasItsOwnBurstsAndItsOwnWindow() throws {
        var state = F.state()
        #expect(try plain(&state, at: 0).sound)
        #expect(try plain(&state, at: 1, caller: F.otherUser).sound, "another uid's burst is its own")
        #expect(try !plain(&state, at: 2).sound)

        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.otherUser)
        #expect(try plain(&state, at: 3, caller: F.otherUser).sound, "off for uid 1001")
        #expect(try plain(&state, at: 4, caller: F.otherUser).sound)
        #expect(try !plain(&state, at: 5).sound, "still on for uid 1000")
        #expect(try state.getCooldown(UIDParams(), caller: F.user).result == CooldownResult(uid: 1000, seconds: 60))
        #expect(try state.getCooldown(UIDParams(), caller: F.otherUser).result == CooldownResult(uid: 1001, seconds: 0))

        _ = try state.setCooldown(SetCooldownParams(seconds: 10), caller: F.user)
        #expect(try plain(&state, at: 15).sound, "a shorter window counts from the latest arrival")
        let shorter = try plain(&state, at: 24)
        #expect(!shorter.sound && shorter.reasons.last?.message.contains("within 10 seconds") == true, "the sentence follows the window")
        #expect(try plain(&state, at: 34).sound)
    }

    @Test func offForgetsTheBurstsAndOnStartsAfresh() throws {
        var state = F.state()
        #expect(try plain(&state, at: 0).sound)
        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.user)
        #expect(try plain(&state, at: 1).sound)
        #expect(state.cooldowns.sourceCount(uid: F.user.uid) == 0)
        _ = try state.setCooldown(SetCooldownParams(seconds: 60), caller: F.user)
        #expect(try plain(&state, at: 2).sound)
        #expect(try !plain(&state, at: 3).sound)
    }

    @Test func criticalTimeSensitiveAndRepeatedCallsAreNotCooledDownNorCounted() throws {
        var state = F.state()
        _ = try state.setCapabilities(
            .init(app: F.app, uid: F.user.uid, critical: true), caller: F.admin, now: F.now)
        let critical = try plain(&state, at: 0, level: .critical)
        #expect(critical.sound && critical.bypassesRinger)
        let timeSensitive = try plain(&state, at: 1, level: .timeSensitive)
        #expect(timeSensitive.sound && timeSensitive.codes == ["delivered"])
        #expect(try plain(&state, at: 2).sound, "exempt ones start no burst")
        #expect(try !plain(&state, at: 3).sound)
        #expect(try plain(&state, at: 4, level: .critical).sound, "within a burst, still with sound")
        #expect(try plain(&state, at: 5, level: .timeSensitive).sound)

        // Calls without a conversation are the app's: a repeated one rings, another caller's not.
        try state.donate(F.call("k1"), now: F.now + 10)
        #expect(try !state.update("k1", now: F.now + 10).result.delivery.sound, "a first call within the app's burst")
        try state.donate(F.call("k2"), now: F.now + 30)
        let repeated = try state.update("k2", now: F.now + 30).result.delivery
        #expect(repeated.sound && repeated.codes == ["delivered"], "the same caller within the repeated-call window")
        try state.donate(F.call("k3", contacts: [F.cy]), now: F.now + 40)
        #expect(try !state.update("k3", now: F.now + 40).result.delivery.sound)
    }

    @Test func aTimeSensitiveNotificationWithoutTheCapabilityIsCooledDownAsActive() throws {
        var state = F.state()
        _ = try state.setCapabilities(.init(app: F.app, uid: F.user.uid, timeSensitive: false), caller: F.admin, now: F.now)
        #expect(try plain(&state, at: 0).sound)
        let demoted = try plain(&state, at: 1, level: .timeSensitive)
        #expect(demoted.codes == ["timeSensitiveNotPermitted", "delivered", "cooledDown"] && !demoted.sound)
    }

    @Test func quietAndHeldNotificationsAreLeftAsTheyAreAndStartNoBurst() throws {
        var state = F.state()
        let passive = try plain(&state, at: 0, level: .passive)
        #expect(passive.codes == ["passive"])
        #expect(try plain(&state, at: 1).sound, "a passive one started no burst")

        try state.focusOn(FocusConfiguration(name: "Work"), now: F.now + 100)
        #expect(try plain(&state, at: 100).codes == ["silencedByFocus"])
        _ = try state.setFocus(SetFocusParams(focus: nil), caller: F.user, now: F.now + 200)
        #expect(try plain(&state, at: 200).sound, "a silenced one started no burst")

        _ = try state.setSummary(SetSummaryParams(apps: [F.otherApp], times: ["08:00"]), caller: F.user, now: F.now)
        #expect(try plain(&state, at: 300, app: F.otherApp).codes == ["heldForSummary"])
        #expect(try plain(&state, at: 301, app: F.otherApp).codes == ["heldForSummary"], "held, not cooled down")
    }

    @Test func theWindowIsAPersonsSettingFromZeroToTenMinutes() throws {
        var state = F.state()
        #expect(try state.setCooldown(SetCooldownParams(seconds: 600), caller: F.user).result.seconds == 600)
        #expect(try state.getCooldown(UIDParams(), caller: F.user).result.seconds == 600)
        let tooLong = ruleError { try state.setCooldown(SetCooldownParams(seconds: 601), caller: F.user) }
        #expect(tooLong?.code == .invalidParams && tooLong?.path == ["seconds"] && tooLong?.limit == 600)
        #expect(ruleError { try state.setCooldown(SetCooldownParams(seconds: -1), caller: F.user) }?.path == ["seconds"])
        let another = ruleError { try state.setCooldown(SetCooldownParams(seconds: 30, uid: 1001), caller: F.user) }
        #expect(another?.code == .permissionDenied)
        #expect(ruleError { try state.getCooldown(UIDParams(uid: 1001), caller: F.user) }?.code == .permissionDenied)
        let byAdmin = try state.setCooldown(SetCooldownParams(seconds: 30, uid: 1001), caller: F.admin)
        #expect(byAdmin.result == CooldownResult(uid: 1001, seconds: 30) && byAdmin.audit.cooldownSeconds == 30 && byAdmin.audit.settingUID == 1001)
        #expect(try state.getCooldown(UIDParams(), caller: F.otherUser).result.seconds == 30)
        #expect(state.storedCooldowns.map(\.uid) == [1000, 1001])
    }

    @Test func eachUIDRemembersABoundedNumberOfSourcesForgettingTheOldest() throws {
        var cooldowns = BurstCooldowns()
        let max = BurstCooldowns.maxSourcesPerUID
        func arrive(_ name: String, at seconds: Double) -> String? {
            cooldowns.arrive(uid: 1, source: .init(app: "a", conversationIdentifier: name), now: F.now + seconds) { _, _ in "cooled" }
        }
        for index in 0..<max {
            #expect(arrive("c\(index)", at: Double(index) / 100) == nil)
        }
        #expect(cooldowns.sourceCount(uid: 1) == max)
        // At the bound, with every window still open, the least recent quarter goes at once:
        // their next notification alerts as a first one.
        #expect(arrive("new", at: 3) == nil)
        #expect(cooldowns.sourceCount(uid: 1) == BurstCooldowns.keptAtTrim + 1)
        #expect(arrive("c\(max - 1)", at: 4) != nil, "the most recent are remembered")
        #expect(arrive("c0", at: 4) == nil, "the least recent were forgotten")
        // Ended bursts go first, all at once.
        for index in 0..<(max - cooldowns.sourceCount(uid: 1)) {
            #expect(arrive("d\(index)", at: 5) == nil)
        }
        #expect(cooldowns.sourceCount(uid: 1) == max)
        #expect(arrive("later", at: 100) == nil)
        #expect(cooldowns.sourceCount(uid: 1) == 1)
        #expect(cooldowns.sourceCount(uid: 2) == 0, "another uid holds none")
    }
}
