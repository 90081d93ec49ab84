import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Named Focuses and their schedules, evaluated with the clock given: midnight, the
/// daylight-saving changes of Europe/Berlin, overlapping schedules, a choice by hand over
/// a schedule and its end, and each uid's own Focus.
@Suite struct FocusScheduleTests {
    typealias F = Fixtures

    static let berlin = CoreConfiguration(timeZone: ZoneRules(identifier: "Europe/Berlin")!)

    /// An instant written in UTC: `"2027-03-26T21:00:00"`.
    static func utc(_ text: String) -> Date {
        RFC3339.parse(text + "Z")!
    }

    static func sleep(_ days: [String]? = ["mon", "tue", "wed", "thu", "fri"], _ start: String = "22:00", _ end: String = "07:00") -> FocusConfiguration {
        FocusConfiguration(name: "Sleep", allowedPeople: [F.ann], schedules: [FocusSchedule(days: days, start: start, end: end)])
    }

    private func define(_ state: inout HeraldState, _ focus: FocusConfiguration, caller: Caller = F.user, at now: Date) throws {
        _ = try state.defineFocus(DefineFocusParams(focus: focus), caller: caller, now: now)
    }

    /// The Focus on for the user at `now` and why, as get-focus answers (the state brought up to `now` first).
    private func on(_ state: inout HeraldState, at now: Date, uid: UInt32 = F.user.uid) -> ActiveFocus? {
        state.advanceFocuses(now: now)
        return state.focusReadBack(uid: uid, now: now).active
    }

    @Test func aNightScheduleSpansMidnightOnItsDaysOnly() throws {
        var state = F.state(Self.berlin)
        // Friday 2027-01-15, 22:00 in Berlin is 21:00 UTC (CET, +1).
        try define(&state, Self.sleep(), at: Self.utc("2027-01-15T12:00:00"))
        #expect(on(&state, at: Self.utc("2027-01-15T20:59:59")) == nil)
        #expect(
            on(&state, at: Self.utc("2027-01-15T21:00:00"))
                == ActiveFocus(name: "Sleep", reason: .schedule, endsAt: Self.utc("2027-01-16T06:00:00")))
        // Saturday 06:59 Berlin: still the night that started on Friday.
        #expect(on(&state, at: Self.utc("2027-01-16T05:59:59"))?.name == "Sleep")
        #expect(on(&state, at: Self.utc("2027-01-16T06:00:00")) == nil)
        // Saturday and Sunday nights are not scheduled; Monday's is.
        #expect(on(&state, at: Self.utc("2027-01-16T22:00:00")) == nil)
        #expect(on(&state, at: Self.utc("2027-01-17T22:00:00")) == nil)
        #expect(state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-17T22:00:00")).nextChange == Self.utc("2027-01-18T21:00:00"))
        #expect(on(&state, at: Self.utc("2027-01-18T21:00:00"))?.name == "Sleep")
    }

    @Test func daylightSavingChangesMoveTheWindowsInUTC() throws {
        var state = F.state(Self.berlin)
        try define(&state, Self.sleep(nil), at: Self.utc("2027-03-27T12:00:00"))
        // Saturday 2027-03-27 22:00 CET is 21:00 UTC; Sunday 07:00 is CEST (+2) since 02:00,
        // so the night is 8 hours long.
        #expect(on(&state, at: Self.utc("2027-03-27T21:00:00"))?.endsAt == Self.utc("2027-03-28T05:00:00"))
        #expect(on(&state, at: Self.utc("2027-03-28T04:59:59"))?.name == "Sleep")
        #expect(on(&state, at: Self.utc("2027-03-28T05:00:00")) == nil)
        // A window that ends at a time the change skips (02:30 on 2027-03-28) ends at 03:00 CEST.
        var skipped = F.state(Self.berlin)
        try define(&skipped, FocusConfiguration(name: "Late", schedules: [FocusSchedule(days: ["sun"], start: "01:30", end: "02:30")]), at: Self.utc("2027-03-27T12:00:00"))
        #expect(on(&skipped, at: Self.utc("2027-03-28T00:30:00")) == ActiveFocus(name: "Late", reason: .schedule, endsAt: Self.utc("2027-03-28T01:00:00")))
        #expect(on(&skipped, at: Self.utc("2027-03-28T01:00:00")) == nil)
        // Sunday 2027-10-31 repeats 02:00–03:00: a start at 02:30 is the first one (CEST), the
        // end at 04:00 is CET, so the window lasts 2.5 hours.
        var repeated = F.state(Self.berlin)
        try define(&repeated, FocusConfiguration(name: "Late", schedules: [FocusSchedule(days: ["sun"], start: "02:30", end: "04:00")]), at: Self.utc("2027-10-30T12:00:00"))
        #expect(repeated.focusReadBack(uid: F.user.uid, now: Self.utc("2027-10-30T12:00:00")).nextChange == Self.utc("2027-10-31T00:30:00"))
        #expect(on(&repeated, at: Self.utc("2027-10-31T00:30:00"))?.endsAt == Self.utc("2027-10-31T03:00:00"))
        #expect(on(&repeated, at: Self.utc("2027-10-31T02:59:59"))?.name == "Late")
        #expect(on(&repeated, at: Self.utc("2027-10-31T03:00:00")) == nil)
    }

    @Test func ofOverlappingSchedulesTheLatestStartWinsThenTheFirstName() throws {
        var state = F.state()
        let friday = Self.utc("2027-01-15T00:00:00")
        try define(&state, FocusConfiguration(name: "Work", schedules: [FocusSchedule(start: "09:00", end: "17:00")]), at: friday)
        try define(&state, FocusConfiguration(name: "Meeting", schedules: [FocusSchedule(days: ["fri"], start: "10:00", end: "11:00")]), at: friday)
        try define(&state, FocusConfiguration(name: "Lunch", schedules: [FocusSchedule(start: "12:00", end: "13:00")]), at: friday)
        try define(&state, FocusConfiguration(name: "Break", schedules: [FocusSchedule(start: "12:00", end: "12:30")]), at: friday)
        #expect(on(&state, at: Self.utc("2027-01-15T09:30:00"))?.name == "Work")
        let work = state.focuses[F.user.uid].current?.activation
        #expect(on(&state, at: Self.utc("2027-01-15T10:30:00")) == ActiveFocus(name: "Meeting", reason: .schedule, endsAt: Self.utc("2027-01-15T11:00:00")))
        #expect(on(&state, at: Self.utc("2027-01-15T11:00:00"))?.name == "Work")
        #expect(state.focuses[F.user.uid].current?.activation != work, "back to Work is a new activation")
        // Lunch and Break start together: Break sorts first; when Break ends, Lunch is on.
        #expect(on(&state, at: Self.utc("2027-01-15T12:00:00"))?.name == "Break")
        #expect(on(&state, at: Self.utc("2027-01-15T12:30:00"))?.name == "Lunch")
        #expect(on(&state, at: Self.utc("2027-01-15T13:00:00"))?.name == "Work")
        #expect(on(&state, at: Self.utc("2027-01-15T17:00:00")) == nil)
    }

    @Test func aChoiceByHandWinsUntilItEnds() throws {
        var state = F.state()
        let thursday = Self.utc("2027-01-14T12:00:00")
        try define(&state, Self.sleep(), at: thursday)
        // Without until: Work by hand at 23:00 holds until the schedule's next edge, 07:00.
        #expect(on(&state, at: Self.utc("2027-01-14T23:00:00"))?.name == "Sleep")
        _ = try state.setFocus(.init(focus: FocusConfiguration(name: "Work", allowedApps: [F.otherApp])), caller: F.user, now: Self.utc("2027-01-14T23:00:00"))
        #expect(on(&state, at: Self.utc("2027-01-14T23:00:01")) == ActiveFocus(name: "Work", reason: .manual, endsAt: Self.utc("2027-01-15T07:00:00")))
        #expect(on(&state, at: Self.utc("2027-01-15T07:00:00")) == nil)
        // With until: it holds past the schedule's start, then the schedule takes over.
        _ = try state.setFocus(.init(focus: nil, name: "Work", until: Self.utc("2027-01-15T23:00:00")), caller: F.user, now: Self.utc("2027-01-15T20:00:00"))
        #expect(on(&state, at: Self.utc("2027-01-15T22:30:00")) == ActiveFocus(name: "Work", reason: .until, endsAt: Self.utc("2027-01-15T23:00:00")))
        #expect(on(&state, at: Self.utc("2027-01-15T23:00:00")) == ActiveFocus(name: "Sleep", reason: .schedule, endsAt: Self.utc("2027-01-16T07:00:00")))
        // Off by hand during a window: off until the window ends, and on again at the next start.
        _ = try state.setFocus(.init(focus: nil), caller: F.user, now: Self.utc("2027-01-15T23:30:00"))
        #expect(on(&state, at: Self.utc("2027-01-16T01:00:00")) == nil)
        #expect(state.focusReadBack(uid: F.user.uid, now: Self.utc("2027-01-16T01:00:00")).nextChange == Self.utc("2027-01-16T07:00:00"))
        #expect(on(&state, at: Self.utc("2027-01-18T22:00:00"))?.name == "Sleep")
    }

    @Test func everyChangeIsRecordedWithCountsNeverHandles() throws {
        var state = F.state()
        try define(&state, Self.sleep(nil), at: Self.utc("2027-01-15T12:00:00"))
        _ = state.takeFocusChanges()
        state.advanceFocuses(now: Self.utc("2027-01-15T22:00:00"))
        state.advanceFocuses(now: Self.utc("2027-01-16T07:00:00"))
        let changes = state.takeFocusChanges()
        #expect(changes.map(\.isOn) == [true, false])
        #expect(changes.map(\.cause) == ["schedule", "ended"])
        #expect(changes.map(\.name) == ["Sleep", "Sleep"])
        #expect(changes.first?.allowedPeople == 1 && changes.first?.allowedApps == 0)
        #expect(!String(describing: changes).contains("ann"))
        #expect(state.takeFocusChanges().isEmpty)
    }

    @Test func eachUidHasItsOwnFocusAndOnlyAdministratorsNameAnother() throws {
        var state = F.state(CoreConfiguration(focusAuthorizationPolicy: .allow, timeZone: .utc))
        _ = try state.setFocus(.init(focus: FocusConfiguration(name: "Work")), caller: F.user, now: F.now)
        for caller in [F.user, F.otherUser] {
            _ = try state.requestFocus(.init(app: F.app, requestAuthorization: true), caller: caller, now: F.now)
        }
        #expect(state.focusStatus(uid: F.user.uid, app: F.app, now: F.now) == FocusStatus(isFocused: true))
        #expect(state.focusStatus(uid: F.otherUser.uid, app: F.app, now: F.now) == FocusStatus(isFocused: false))
        #expect(try state.getFocus(.init(), caller: F.otherUser, now: F.now).result.active == nil)
        #expect(try state.getFocus(.init(uid: F.user.uid), caller: F.admin, now: F.now).result.active?.name == "Work")
        let refused = [
            ruleError { try state.getFocus(.init(uid: F.user.uid), caller: F.otherUser, now: F.now) },
            ruleError { try state.setFocus(.init(focus: nil, uid: F.user.uid), caller: F.otherUser, now: F.now) },
            ruleError { try state.defineFocus(.init(focus: FocusConfiguration(name: "X"), uid: F.user.uid), caller: F.otherUser, now: F.now) },
            ruleError { try state.deleteFocus(.init(name: "Work", uid: F.user.uid), caller: F.otherUser, now: F.now) },
            ruleError { try state.setSummary(.init(apps: [], times: [], uid: F.user.uid), caller: F.otherUser, now: F.now) },
            ruleError { try state.getSummary(.init(uid: F.user.uid), caller: F.otherUser, now: F.now) },
        ]
        #expect(refused.map { $0?.code } == Array(repeating: .permissionDenied, count: 6))
        #expect(refused.allSatisfy { $0?.path == ["uid"] })
        // Naming one's own uid is fine.
        #expect(try state.getSummary(.init(uid: F.otherUser.uid), caller: F.otherUser, now: F.now).result.uid == F.otherUser.uid)
    }

    @Test func summariesArePerUid() throws {
        var state = F.state()
        _ = try state.setSummary(.init(apps: [F.app], times: ["18:00"]), caller: F.user, now: F.now)
        let mine = try state.update(nil, caller: F.user)
        let theirs = try state.update(nil, caller: F.otherUser)
        #expect(mine.result.delivery.presentation == .summary)
        #expect(theirs.result.delivery.presentation != .summary)
        let summary = try state.getSummary(.init(), caller: F.user, now: F.now).result
        #expect(summary == SetSummaryResult(uid: F.user.uid, apps: [F.app], times: ["18:00"], nextDelivery: F.now + 10 * 3600))
        #expect(try state.getSummary(.init(), caller: F.otherUser, now: F.now).result.apps.isEmpty)
    }

    @Test func definitionsAreCheckedAndReadBack() throws {
        var state = F.state()
        func error(_ focus: FocusConfiguration) -> RuleError? {
            ruleError { try state.defineFocus(.init(focus: focus), caller: F.user, now: F.now) }
        }
        #expect(error(Self.sleep(["mon", "someday"]))?.path == ["focus", "schedules", 0, "days", 1])
        #expect(error(Self.sleep([]))?.path == ["focus", "schedules", 0, "days"])
        #expect(error(Self.sleep(nil, "22:00", "22:00"))?.path == ["focus", "schedules", 0, "end"])
        #expect(error(Self.sleep(nil, "7am", "08:00"))?.path == ["focus", "schedules", 0, "start"])
        #expect(error(FocusConfiguration(name: "W", until: F.now + 60))?.path == ["focus", "until"])
        let many = Array(repeating: FocusSchedule(start: "01:00", end: "02:00"), count: FocusState.maxSchedules + 1)
        #expect(error(FocusConfiguration(name: "W", schedules: many))?.path == ["focus", "schedules"])
        #expect(ruleError { try state.setFocus(.init(focus: nil, name: "Nope"), caller: F.user, now: F.now) }?.path == ["name"])
        #expect(ruleError { try state.deleteFocus(.init(name: "Nope"), caller: F.user, now: F.now) }?.path == ["name"])

        let defined = try state.defineFocus(.init(focus: Self.sleep(["fri", "mon"], "22:00:30", "07:00")), caller: F.user, now: F.now).result
        #expect(defined.focuses.first?.schedules == [FocusSchedule(days: ["mon", "fri"], start: "22:00:30", end: "07:00")])
        // set-focus without schedules keeps those defined; delete-focus turns it off.
        _ = try state.setFocus(.init(focus: FocusConfiguration(name: "Sleep")), caller: F.user, now: F.now)
        let read = try state.getFocus(.init(), caller: F.user, now: F.now).result
        #expect(read.focuses.first?.schedules?.count == 1 && read.focuses.first?.allowedPeople == [])
        #expect(read.active?.name == "Sleep")
        _ = state.takeFocusChanges()
        #expect(try state.deleteFocus(.init(name: "Sleep"), caller: F.user, now: F.now).result.active == nil)
        #expect(state.takeFocusChanges().map(\.cause) == ["deleted"])
    }
}
