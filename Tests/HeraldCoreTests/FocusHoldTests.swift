import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 45: a hold keeps a Focus on; holds stack; the last one's end ends the Focus as
/// turned off (one digest for the whole); a change by hand wins and is remembered.
@Suite struct FocusHoldTests {
    typealias F = Fixtures

    private func define(_ state: inout HeraldState, _ names: String...) throws {
        for name in names {
            _ = try state.defineFocus(DefineFocusParams(focus: FocusConfiguration(name: name)), caller: F.user, now: F.now)
        }
    }

    private func hold(_ state: inout HeraldState, _ name: String, _ id: String, at now: Date = F.now) throws -> FocusConfiguration? {
        try state.holdFocus(HoldFocusParams(name: name), caller: F.user, id: id, command: "obs", now: now).result.focus
    }

    private func release(_ state: inout HeraldState, _ id: String, at now: Date = F.now) throws -> FocusConfiguration? {
        try state.releaseFocusHold(ReleaseFocusHoldParams(hold: id), caller: F.user, now: now).result.focus
    }

    private func active(_ state: HeraldState) -> ActiveFocus? {
        state.focusReadBack(uid: F.user.uid, now: F.now).active
    }

    @Test func aHoldTurnsTheFocusOnAndItsEndTurnsItOffWithOneDigest() throws {
        var state = F.state()
        try define(&state, "Presenting")
        #expect(try hold(&state, "Presenting", "h1")?.name == "Presenting")
        #expect(active(state) == ActiveFocus(name: "Presenting", reason: .held, endsAt: nil))
        #expect(state.focusHolds(uid: F.user.uid).map(\.command) == ["obs"])
        #expect(try state.update(nil).result.delivery.codes.contains("silencedByFocus"))
        _ = state.takeFocusDigests()
        #expect(try release(&state, "h1") == nil)
        let digests = state.takeFocusDigests()
        #expect(digests.count == 1 && digests.first?.total == 1 && digests.first?.endedBy == .turnedOff)
        #expect(state.takeFocusChanges().last?.cause == "released")
        #expect(state.focusHolds(uid: F.user.uid).isEmpty)
    }

    @Test func holdsStackAndTheLatestDecides() throws {
        var state = F.state()
        try define(&state, "Presenting", "Deep")
        _ = try hold(&state, "Presenting", "a")
        _ = try hold(&state, "Presenting", "b")
        _ = try state.update(nil)
        #expect(try release(&state, "a")?.name == "Presenting")
        #expect(state.takeFocusDigests().isEmpty, "the same activation goes on")
        _ = try hold(&state, "Deep", "c")
        #expect(active(state)?.name == "Deep")
        #expect(try release(&state, "c")?.name == "Presenting", "the hold before is back")
        _ = try release(&state, "b")
        #expect(active(state) == nil)
    }

    @Test func aChoiceByHandBeforeTheHoldsComesBack() throws {
        var state = F.state()
        try define(&state, "Presenting")
        _ = try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work")), caller: F.user, now: F.now)
        _ = try hold(&state, "Presenting", "a")
        #expect(try release(&state, "a")?.name == "Work")
    }

    @Test func aChangeByHandWinsAndTheHoldIsRemembered() throws {
        var state = F.state()
        try define(&state, "Presenting")
        _ = try hold(&state, "Presenting", "a")
        _ = try state.setFocus(SetFocusParams(focus: nil), caller: F.user, now: F.now)
        #expect(active(state) == nil)
        #expect(state.focusHolds(uid: F.user.uid).map(\.overridden) == [true])
        _ = state.takeFocusChanges()
        #expect(try release(&state, "a") == nil)
        #expect(state.takeFocusChanges().isEmpty, "an overridden hold's end changes nothing")
        // Deleting the held Focus overrides its holds too.
        _ = try hold(&state, "Presenting", "b")
        _ = try state.deleteFocus(DeleteFocusParams(name: "Presenting"), caller: F.user, now: F.now)
        #expect(active(state) == nil && state.focusHolds(uid: F.user.uid).map(\.overridden) == [true])
    }

    @Test func refusals() throws {
        var state = F.state()
        #expect(throws: RuleError.self) { try hold(&state, "Nope", "a") }
        try define(&state, "Presenting")
        let long = HoldFocusParams(name: "Presenting", reason: String(repeating: "r", count: HoldFocusParams.maxReasonBytes + 1))
        #expect(throws: RuleError.self) { try state.holdFocus(long, caller: F.user, id: "x", command: nil, now: F.now) }
        for index in 0..<FocusHold.maxPerUID { _ = try hold(&state, "Presenting", "h\(index)") }
        do {
            _ = try hold(&state, "Presenting", "past")
            Issue.record("a hold past the limit was taken")
        } catch let error as RuleError {
            #expect(error.limit == FocusHold.maxPerUID && error.path == ["name"])
        }
        // Another uid's hold is not the caller's to end.
        #expect(throws: RuleError.self) {
            try state.releaseFocusHold(ReleaseFocusHoldParams(hold: "h0"), caller: F.otherUser, now: F.now)
        }
    }

    @Test func aRestartEndsTheHoldsAsReleased() throws {
        var state = F.state()
        try define(&state, "Presenting")
        _ = try hold(&state, "Presenting", "a")
        _ = try state.update(nil)
        _ = state.takeFocusDigests()
        let released = state.releaseEveryFocusHold(now: F.now)
        #expect(released)
        let digests = state.takeFocusDigests()
        #expect(active(state) == nil && digests.count == 1)
    }
}
