import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31: the person mutes a conversation, or marks it priority so that it breaks
/// through a Focus like an allowed person.
@Suite struct ConversationControlTests {
    typealias F = Fixtures

    private func set(
        _ state: inout HeraldState, _ conversation: String = "c1", mute: ConversationMute? = nil, unmute: Bool? = nil,
        priority: Bool? = nil, caller: Caller = F.user, at seconds: Double = 0
    ) throws -> ConversationControl {
        try state.setConversation(
            SetConversationParams(app: F.app, conversationIdentifier: conversation, mute: mute, unmute: unmute, priority: priority),
            caller: caller, now: F.now + seconds
        ).result
    }

    /// A message of conversation `conversation` from `sender`, delivered at `seconds`.
    private func deliver(
        _ state: inout HeraldState, _ id: String, conversation: String = "c1", sender: Person = F.ann, level: InterruptionLevel? = nil,
        at seconds: Double = 0
    ) throws -> Delivery {
        try state.donate(F.message(id, sender: sender, conversation: conversation), now: F.now + seconds)
        return try state.update(id, F.content(level), now: F.now + seconds).result.delivery
    }

    private func listed(_ state: HeraldState, caller: Caller = F.user, at seconds: Double = 0) throws -> [ConversationControl] {
        try state.listConversations(ListConversationsParams(), caller: caller, now: F.now + seconds).result.conversations
    }

    /// Issue 49, finding 10: identifiers of 16 KB of combining marks made each
    /// `set-conversation` 30-117 ms and `list-conversations` 185 ms under the lock. An
    /// identifier is at most 256 bytes, refused past it with the limit.
    @Test func anIdentifierLongerThanItsBytesIsRefusedWithTheLimit() throws {
        var state = F.state()
        let marks = "a" + String(repeating: "\u{301}", count: 8_000)
        let refused = ruleError { try set(&state, marks, priority: true) }
        #expect(refused?.code == .invalidParams && refused?.path == ["conversationIdentifier"])
        #expect(refused?.limit == ConversationControls.maxIdentifierBytes && refused?.reason.contains("16001 bytes") == true)
        let justOver = String(repeating: "é", count: 128) + "x"  // 257 bytes
        #expect(ruleError { try set(&state, justOver, priority: true) }?.limit == 256)
        let atTheBound = String(repeating: "é", count: 128)
        #expect(try set(&state, atTheBound, priority: true).conversationIdentifier == atTheBound)
        #expect(try listed(state).count == 1)
    }

    /// Identifiers are the app's bytes: compared, hashed and ordered without the Unicode
    /// normalization that `String` does (and that made marks cost super-linear time).
    @Test func identifiersAreComparedAndOrderedByTheirBytes() throws {
        var state = F.state()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "equal as Swift strings")
        _ = try set(&state, decomposed, priority: true)
        _ = try set(&state, composed, mute: ConversationMute(forever: true))
        _ = try set(&state, "zeta", priority: true)
        let listed = try listed(state).map(\.conversationIdentifier)
        #expect(listed.map { Array($0.utf8) } == [Array(decomposed.utf8), Array(composed.utf8), Array("zeta".utf8)], "two conversations, in byte order")
        #expect(try deliver(&state, "m1", conversation: composed).codes == ["conversationMuted"])
        #expect(try deliver(&state, "m2", conversation: decomposed).codes == ["delivered"], "the other bytes are another conversation")
    }

    /// A snapshot of a build without the bound restores its other controls, dropping the long.
    @Test func aRestoredControlOfALongIdentifierIsDroppedAlone() {
        var state = F.state()
        let long = String(repeating: "x", count: 300)
        let stored = [
            HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: long, priority: true),
            HeraldState.StoredConversation(uid: 1000, app: F.app, conversationIdentifier: "c1", priority: true),
        ]
        let restored = state.restoreConversations(stored)
        #expect(restored)
        #expect(state.storedConversations.map(\.conversationIdentifier) == ["c1"])
    }

    @Test func aMutedConversationIsDeliveredQuietlyUntilItsMuteEnds() throws {
        var state = F.state()
        let muted = try set(&state, mute: ConversationMute(seconds: 3600))
        #expect(muted == ConversationControl(app: F.app, conversationIdentifier: "c1", muted: true, mutedUntil: F.now + 3600))
        let quiet = try deliver(&state, "m1", at: 10)
        #expect(quiet.presentation == .quiet && !quiet.sound && !quiet.lightsScreen)
        #expect(quiet.codes == ["conversationMuted"])
        #expect(quiet.reasons[0].message.contains("until 2027-01-15T09:00:00") && quiet.reasons[0].message.contains("whatever Focus is on"))
        #expect(try deliver(&state, "m2", conversation: "c2", at: 10).codes == ["delivered"], "another conversation is not muted")
        #expect(try state.update("m1", now: F.now + 10).audit.reasons == ["conversationMuted"], "the journal has the reason")

        let later = try deliver(&state, "m3", at: 3600)
        #expect(later.presentation == .alert && later.codes == ["delivered"], "the mute ended by itself at its time")
        #expect(try listed(state, at: 3600).isEmpty, "and the list no longer shows it")
        #expect(try listed(state, at: 3599).map(\.mutedUntil) == [F.now + 3600])
    }

    @Test func aMuteUntilUnmutedLastsAndUnmuteEndsIt() throws {
        var state = F.state()
        _ = try set(&state, mute: ConversationMute(forever: true))
        let quiet = try deliver(&state, "m1", at: 400 * 86_400)
        #expect(quiet.codes == ["conversationMuted"] && quiet.reasons[0].message.contains("until you unmute it"))
        #expect(try listed(state) == [ConversationControl(app: F.app, conversationIdentifier: "c1", muted: true)])
        #expect(try set(&state, unmute: true) == ConversationControl(app: F.app, conversationIdentifier: "c1"))
        #expect(try deliver(&state, "m2").codes == ["delivered"])
        #expect(try listed(state).isEmpty, "a conversation that decides nothing is not listed")
    }

    @Test func aMuteHoldsBackNeitherACriticalMessageNorACall() throws {
        var state = F.state()
        _ = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now)
        _ = try set(&state, mute: ConversationMute(forever: true))
        let critical = try deliver(&state, "m1", level: .critical)
        #expect(critical.presentation == .alert && critical.bypassesRinger)
        #expect(try deliver(&state, "m2", level: .timeSensitive).codes == ["conversationMuted"], "Time Sensitive is the app's word, the mute the person's")
        try state.donate(F.call("k1"))
        #expect(try state.update("k1").result.delivery.codes == ["delivered"], "a call names no conversation")
    }

    @Test func aPriorityConversationBreaksThroughAFocusRightAfterAnAllowedSender() throws {
        var state = F.state()
        try state.focusOn(FocusConfiguration(name: "Work", allowedPeople: [F.cy]))
        #expect(try deliver(&state, "m0").codes == ["silencedByFocus"])
        _ = try set(&state, priority: true)
        let through = try deliver(&state, "m1")
        #expect(through.codes == ["priorityConversation", "delivered"] && through.breaksThroughFocus && through.presentation == .alert)
        #expect(through.reasons[0].message.contains("Work") && through.reasons[0].message.contains("priority"))
        #expect(try deliver(&state, "m2", conversation: "c2").codes == ["silencedByFocus"], "only that conversation")
        // A minute apart, so that the burst cooldown (60 s by default) leaves each its sound.
        #expect(try deliver(&state, "m3", sender: F.cy, at: 100).codes == ["senderAllowedByFocus", "delivered"], "an allowed sender comes first")
        #expect(try deliver(&state, "m4", conversation: "c1", at: 200).codes == ["priorityConversation", "delivered"])
        let burst = try deliver(&state, "m5", conversation: "c1", at: 210)
        #expect(burst.codes == ["priorityConversation", "delivered", "cooledDown"] && !burst.sound, "priority breaks through a Focus, not the cooldown")
    }

    @Test func priorityWinsOverASilenceListThatNamesTheSenderOrTheApp() throws {
        var state = F.state()
        _ = try set(&state, priority: true)
        try state.focusOn(FocusConfiguration(name: "Sleep", silencedPeople: [F.ann]))
        #expect(try deliver(&state, "m1").codes == ["priorityConversation", "delivered"])
        try state.focusOn(FocusConfiguration(name: "Sleep", silencedApps: [F.app]))
        #expect(try deliver(&state, "m2", at: 100).codes == ["priorityConversation", "delivered"])
    }

    @Test func mutedAndPriorityAtOnceTheMuteWinsWhileItLasts() throws {
        var state = F.state()
        try state.focusOn(FocusConfiguration(name: "Work"))
        _ = try set(&state, priority: true)
        let both = try set(&state, mute: ConversationMute(seconds: 60))
        #expect(both.muted && both.priority)
        let quiet = try deliver(&state, "m1", at: 1)
        #expect(quiet.codes == ["priorityConversation", "conversationMuted"] && quiet.presentation == .quiet && !quiet.sound)
        #expect(try deliver(&state, "m2", at: 60).codes == ["priorityConversation", "delivered"], "priority holds again after")
        #expect(try listed(state, at: 60) == [ConversationControl(app: F.app, conversationIdentifier: "c1", priority: true)])
    }

    @Test func aMutedMessageHeldBackByAFocusStaysSilencedByIt() throws {
        var state = F.state()
        try state.focusOn(FocusConfiguration(name: "Work"))
        _ = try set(&state, mute: ConversationMute(forever: true))
        #expect(try deliver(&state, "m1").codes == ["silencedByFocus"], "quiet already: the mute decided nothing more")
    }

    @Test func eachUIDControlsItsOwnConversations() throws {
        var state = F.state()
        _ = try set(&state, mute: ConversationMute(forever: true))
        #expect(try listed(state, caller: F.otherUser).isEmpty)
        try state.donate(F.message("m1"), caller: F.otherUser)
        #expect(try state.update("m1", caller: F.otherUser).result.delivery.codes == ["delivered"], "another uid's same conversation is not muted")
        let other = ruleError { try state.listConversations(ListConversationsParams(uid: 1000), caller: F.otherUser, now: F.now) }
        #expect(other?.code == .permissionDenied && other?.path == ["uid"])
        let admin = try state.listConversations(ListConversationsParams(uid: 1000), caller: F.admin, now: F.now).result
        #expect(admin.uid == 1000 && admin.conversations.count == 1)
    }

    @Test func theListIsSortedPagedAndEachUIDHoldsAtMostItsShare() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxConversationsPerUID = 3
        var state = F.state(configuration)
        _ = try set(&state, "c3", priority: true)
        _ = try set(&state, "c1", mute: ConversationMute(seconds: 10))
        _ = try set(&state, "c2", priority: true)
        let full = ruleError { try set(&state, "c4", priority: true) }
        #expect(full?.code == .invalidParams && full?.limit == 3 && full?.path == ["conversationIdentifier"])
        #expect(try set(&state, "c2", mute: ConversationMute(forever: true)).muted, "one already controlled may change")
        _ = try set(&state, "c4", priority: true, at: 10)  // c1's mute ended, so there is room
        #expect(try listed(state, at: 10).map(\.conversationIdentifier) == ["c2", "c3", "c4"])

        let first = try state.listConversations(ListConversationsParams(limit: 2), caller: F.user, now: F.now + 10).result
        #expect(first.conversations.map(\.conversationIdentifier) == ["c2", "c3"] && first.nextCursor == "\(F.app)/c3")
        let next = try state.listConversations(ListConversationsParams(cursor: first.nextCursor), caller: F.user, now: F.now + 10).result
        #expect(next.conversations.map(\.conversationIdentifier) == ["c4"] && next.nextCursor == nil)
        let byBytes = try state.listConversations(
            ListConversationsParams(), caller: F.user, now: F.now + 10, budget: PageBudget(maxBytes: 1) { _ in 10 }
        ).result
        #expect(byBytes.conversations.count == 1 && byBytes.nextCursor != nil, "a page is bounded by bytes before it is built")
        #expect(try state.listConversations(ListConversationsParams(app: F.otherApp), caller: F.user, now: F.now).result.conversations.isEmpty)
    }

    @Test func wrongRequestsAreRefusedWithTheMemberAtFault() throws {
        var state = F.state()
        let cases: [(SetConversationParams, MemberPath)] = [
            (SetConversationParams(app: F.app, conversationIdentifier: "c1"), ["mute"]),
            (SetConversationParams(app: "not an app", conversationIdentifier: "c1", priority: true), ["app"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "", priority: true), ["conversationIdentifier"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(forever: true), unmute: true), ["unmute"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute()), ["mute", "seconds"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: 0)), ["mute", "seconds"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: .nan)), ["mute", "seconds"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: 366 * 86_400)), ["mute", "seconds"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(until: F.now)), ["mute", "until"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(forever: false)), ["mute", "forever"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: 5, until: F.now + 5)), ["mute", "until"]),
            (SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: 5, forever: true)), ["mute", "forever"]),
        ]
        for (params, path) in cases {
            let error = ruleError { try state.setConversation(params, caller: F.user, now: F.now) }
            #expect(error?.code == .invalidParams && error?.path == path, "\(params): \(String(describing: error))")
        }
        let other = ruleError {
            try state.setConversation(SetConversationParams(app: F.app, conversationIdentifier: "c1", priority: true, uid: 1001), caller: F.user, now: F.now)
        }
        #expect(other?.code == .permissionDenied && other?.path == ["uid"])
        let negative = ruleError {
            try state.setConversation(SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(seconds: -1)), caller: F.user, now: F.now)
        }
        #expect(negative?.reason.hasSuffix("; got -1.") == true, "\(String(describing: negative))")
        let cursor = ruleError { try state.listConversations(ListConversationsParams(cursor: "nonsense"), caller: F.user, now: F.now) }
        #expect(cursor?.path == ["cursor"])
        let limit = ruleError { try state.listConversations(ListConversationsParams(limit: 0), caller: F.user, now: F.now) }
        #expect(limit?.path == ["limit"])
        #expect(try listed(state).isEmpty, "nothing refused was kept")
    }

    @Test func theJournalHearsWhatChangedAndWhose() throws {
        var state = F.state()
        let outcome = try state.setConversation(
            SetConversationParams(app: F.app, conversationIdentifier: "c1", mute: ConversationMute(forever: true), priority: true, uid: 1001),
            caller: F.admin, now: F.now)
        #expect(outcome.audit.conversationControl == ["mute=forever", "priority=true"])
        #expect(outcome.audit.settingUID == 1001 && outcome.audit.conversationIdentifier == "c1" && outcome.audit.app == F.app)
        #expect(try listed(state, caller: F.otherUser).count == 1)
    }
}
