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
}
