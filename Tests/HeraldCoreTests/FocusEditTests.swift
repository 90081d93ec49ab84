import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 28: `set-focus` changes what it names of a Focus and keeps the rest; `get-focus`
/// says when a choice by hand overrides a schedule, and until when.
@Suite struct FocusEditTests {
    typealias F = Fixtures
    static let utc = FocusScheduleTests.utc

    private func set(_ state: inout HeraldState, _ update: FocusUpdate?, at now: Date = F.now) throws -> FocusConfiguration? {
        try state.setFocus(SetFocusParams(focus: update), caller: F.user, now: now).result.focus
    }

    private func defined(_ state: HeraldState, _ name: String) -> FocusConfiguration? {
        state.focusReadBack(uid: F.user.uid, now: F.now).focuses.first { $0.name == name }
    }

    @Test func oneSettingChangedKeepsTheRest() throws {
        var state = F.state()
        _ = try set(&state, FocusUpdate(name: "Work", allowedPeople: [F.bo], allowedApps: [F.otherApp], allowMentions: true))
        let changed = try set(&state, FocusUpdate(name: "Work", allowTimeSensitive: false))
        #expect(changed?.allowedPeople == [F.bo] && changed?.allowedApps == [F.otherApp])
        #expect(changed?.allowTimeSensitive == false && changed?.allowRepeatedCalls == true && changed?.allowMentions == true)
        _ = try set(&state, FocusUpdate(name: "Work", allowRepeatedCalls: false))
        #expect(defined(state, "Work")?.allowTimeSensitive == false && defined(state, "Work")?.allowedPeople == [F.bo])
        // What a Focus kept still decides: the allowed app breaks through.
        #expect(try state.update(nil, app: F.otherApp).result.delivery.codes == ["appAllowedByFocus", "delivered"])
    }

    @Test func anEmptyListEmptiesItAndANewFocusTakesTheDefaults() throws {
        var state = F.state()
        _ = try set(&state, FocusUpdate(name: "Work", allowedPeople: [F.bo], allowedApps: [F.otherApp]))
        let emptied = try set(&state, FocusUpdate(name: "Work", allowedPeople: []))
        #expect(emptied?.allowedPeople == [] && emptied?.allowedApps == [F.otherApp])
        let fresh = try set(&state, FocusUpdate(name: "Home", allowMentions: true))
        #expect(fresh == FocusConfiguration(name: "Home", allowMentions: true))
        // Work stays defined as it was left.
        #expect(defined(state, "Work") == FocusConfiguration(name: "Work", allowedApps: [F.otherApp]))
    }

    @Test func aChangedSettingKeepsTheSchedules() throws {
        var state = F.state()
        _ = try state.defineFocus(DefineFocusParams(focus: FocusScheduleTests.sleep()), caller: F.user, now: F.now)
        _ = try set(&state, FocusUpdate(name: "Sleep", allowMentions: true))
        let sleep = defined(state, "Sleep")
        #expect(sleep?.schedules?.count == 1 && sleep?.allowedPeople == [F.ann] && sleep?.allowMentions == true)
    }

    @Test func getFocusSaysWhenAChoiceByHandOverridesASchedule() throws {
        var state = F.state()
        let thursday = Self.utc("2027-01-14T12:00:00")
        _ = try state.defineFocus(DefineFocusParams(focus: FocusScheduleTests.sleep()), caller: F.user, now: thursday)
        #expect(state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-14T23:00:00")).override == nil)
        // Off by hand at 23:00 inside Sleep's window: overridden until the window ends.
        _ = try set(&state, nil, at: Self.utc("2027-01-14T23:00:00"))
        let off = state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-14T23:30:00"))
        #expect(off.active == nil)
        #expect(off.override == FocusOverride(scheduledFocus: "Sleep", endsAt: Self.utc("2027-01-15T07:00:00")))
        // Work by hand inside the window overrides it too, until its until.
        _ = try set(&state, FocusUpdate(name: "Work", until: Self.utc("2027-01-15T01:00:00")), at: Self.utc("2027-01-14T23:45:00"))
        let work = state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-14T23:50:00"))
        #expect(work.active?.name == "Work")
        #expect(work.override == FocusOverride(scheduledFocus: "Sleep", endsAt: Self.utc("2027-01-15T01:00:00")))
        // After the until the schedule decides again, and nothing is overridden.
        state.advanceFocuses(now: Self.utc("2027-01-15T01:00:00"))
        let after = state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-15T01:00:00"))
        #expect(after.active?.name == "Sleep" && after.override == nil)
    }

    // MARK: Issue 45, item 1: an edit continues the activation

    /// A message from `sender` in a conversation of its own, made a notification at `seconds`.
    private func message(_ identifier: String, from sender: Person, at seconds: Double, state: inout HeraldState) throws -> [String] {
        try state.donate(F.message(identifier, sender: sender, conversation: identifier), now: F.now + seconds)
        return try state.update(identifier, now: F.now + seconds).result.delivery.codes
    }

    @Test func editingTheFocusOnMakesNoDigestAndTheOneAtItsEndCountsEverything() throws {
        var state = F.state()
        let eve = Person(handle: PersonHandle(value: "eve@example.org", type: .emailAddress), displayName: "Eve Park")
        _ = try set(&state, FocusUpdate(name: "Work", allowedPeople: [F.ann]))
        #expect(try message("b1", from: F.bo, at: 1, state: &state) == ["silencedByFocus"])
        #expect(try message("b2", from: F.bo, at: 2, state: &state) == ["silencedByFocus"])
        // The edit: another setting given, the rest kept.
        _ = try set(&state, FocusUpdate(name: "Work", allowedApps: ["org.example.pager"]), at: F.now + 3)
        #expect(state.takeFocusDigests().isEmpty, "no digest while Work is still on")
        #expect(try message("e1", from: eve, at: 4, state: &state) == ["silencedByFocus"])
        // A new until, then none, then by name: still the same activation.
        _ = try set(&state, FocusUpdate(name: "Work", until: F.now + 3600), at: F.now + 5)
        _ = try set(&state, FocusUpdate(name: "Work"), at: F.now + 6)
        _ = try state.setFocus(SetFocusParams(focus: nil as FocusUpdate?, name: "Work"), caller: F.user, now: F.now + 7)
        #expect(state.takeFocusDigests().isEmpty)
        let running = try #require(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 8).result.running)
        #expect(running.total == 3 && running.startedAt == F.now)

        _ = try set(&state, nil, at: F.now + 10)
        let digests = state.takeFocusDigests()
        #expect(digests.count == 1)
        let digest = try #require(digests.first)
        #expect(digest.focus == "Work" && digest.total == 3 && digest.endedBy == .turnedOff && digest.startedAt == F.now)
        #expect(Set(digest.entries.map { $0.conversationIdentifier ?? "" }) == ["b1", "b2", "e1"])
        #expect(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 11).result.digest == digest)
    }

    @Test func anEditedFocusStillEndsByItsUntilByAnotherFocusAndByDeletion() throws {
        var state = F.state()
        _ = try set(&state, FocusUpdate(name: "Work", until: F.now + 100))
        _ = try message("b1", from: F.bo, at: 1, state: &state)
        _ = try set(&state, FocusUpdate(name: "Work", until: F.now + 50), at: F.now + 2)
        _ = try message("b2", from: F.bo, at: 3, state: &state)
        state.advanceFocuses(now: F.now + 50)
        let ended = try #require(state.takeFocusDigests().first)
        #expect(ended.endedBy == .ended && ended.total == 2 && ended.endedAt == F.now + 50)

        _ = try set(&state, FocusUpdate(name: "Work"), at: F.now + 60)
        _ = try message("b3", from: F.bo, at: 61, state: &state)
        _ = try set(&state, FocusUpdate(name: "Work", allowMentions: true), at: F.now + 62)
        _ = try set(&state, FocusUpdate(name: "Home"), at: F.now + 63)
        let replaced = try #require(state.takeFocusDigests().first)
        #expect(replaced.focus == "Work" && replaced.endedBy == .replaced && replaced.total == 1)

        _ = try message("b4", from: F.bo, at: 64, state: &state)
        _ = try set(&state, FocusUpdate(name: "Home", allowMentions: true), at: F.now + 65)
        _ = try state.deleteFocus(DeleteFocusParams(name: "Home"), caller: F.user, now: F.now + 66)
        let deleted = try #require(state.takeFocusDigests().first)
        #expect(deleted.focus == "Home" && deleted.endedBy == .deleted && deleted.total == 1 && deleted.startedAt == F.now + 63)
    }

    @Test func settingByHandTheFocusAScheduleTurnedOnContinuesItUntilTheWindowEnds() throws {
        var state = F.state()
        let thursday = Self.utc("2027-01-14T12:00:00")
        _ = try state.defineFocus(DefineFocusParams(focus: FocusScheduleTests.sleep()), caller: F.user, now: thursday)
        state.advanceFocuses(now: Self.utc("2027-01-14T22:00:00"))
        let activation = state.focuses[F.user.uid].current?.activation
        #expect(state.focuses[F.user.uid].current?.name == "Sleep" && activation != nil)
        _ = try message("b1", from: F.bo, at: Self.utc("2027-01-14T22:10:00").timeIntervalSince(F.now), state: &state)
        _ = try set(&state, FocusUpdate(name: "Sleep", allowMentions: true), at: Self.utc("2027-01-14T22:20:00"))
        #expect(state.focuses[F.user.uid].current?.activation == activation && state.focuses[F.user.uid].current?.reason == .manual)
        #expect(state.takeFocusDigests().isEmpty)
        _ = try message("b2", from: F.bo, at: Self.utc("2027-01-14T22:30:00").timeIntervalSince(F.now), state: &state)
        // The choice by hand without until lasts to the window's end; then the one digest.
        state.advanceFocuses(now: Self.utc("2027-01-15T07:00:00"))
        let digests = state.takeFocusDigests()
        #expect(digests.count == 1 && digests.first?.total == 2 && digests.first?.endedBy == .ended)
    }
}
