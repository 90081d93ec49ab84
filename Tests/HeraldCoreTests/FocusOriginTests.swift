import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 47: a choice by hand herald-sync carried from another host names that host while
/// it decides the Focus, in get-focus and in the change journaled; a choice made here, a
/// hold or the schedules name none.
@Suite struct FocusOriginTests {
    typealias F = Fixtures
    static let desk = FocusOrigin(host: "desk", reason: .manual)

    private func origin(_ state: HeraldState, at now: Date = F.now) -> FocusOrigin? {
        state.focusReadBack(uid: F.user.uid, now: now).origin
    }

    @Test func aChoiceFromAnotherHostNamesItUntilAChoiceMadeHere() throws {
        var state = F.state()
        _ = try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work"), origin: Self.desk), caller: F.user, now: F.now)
        #expect(origin(state) == Self.desk)
        let change = try #require(state.takeFocusChanges().last)
        #expect(change.origin == Self.desk && change.cause == "manual" && change.isOn)
        _ = try state.setFocus(SetFocusParams(focus: nil), caller: F.user, now: F.now)
        #expect(origin(state) == nil)
        #expect(state.takeFocusChanges().last?.origin == nil)
    }

    @Test func offFromAnotherHostNamesItWithoutAReason() throws {
        var state = F.state()
        _ = try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work")), caller: F.user, now: F.now)
        _ = state.takeFocusChanges()
        _ = try state.setFocus(SetFocusParams(focus: nil, origin: FocusOrigin(host: "laptop")), caller: F.user, now: F.now)
        #expect(state.focusReadBack(uid: F.user.uid, now: F.now).active == nil)
        #expect(origin(state) == FocusOrigin(host: "laptop"))
        #expect(state.takeFocusChanges().last?.origin == FocusOrigin(host: "laptop"))
    }

    @Test func aHoldOrTheEndOfTheChoiceNamesNoHost() throws {
        var state = F.state()
        _ = try state.defineFocus(DefineFocusParams(focus: FocusConfiguration(name: "Presenting")), caller: F.user, now: F.now)
        _ = try state.setFocus(
            SetFocusParams(focus: FocusUpdate(name: "Work", until: F.now + 60), origin: FocusOrigin(host: "desk", reason: .until)), caller: F.user,
            now: F.now)
        #expect(origin(state)?.reason == .until)
        #expect(origin(state, at: F.now + 61) == nil, "the choice ended at its until")
        _ = try state.holdFocus(HoldFocusParams(name: "Presenting"), caller: F.user, id: "h", command: "obs", now: F.now)
        #expect(origin(state) == nil, "the hold decides")
    }

    @Test(arguments: ["", String(repeating: "h", count: 256), "desk\nlaptop"])
    func aHostThatIsNotANameIsRefusedAtItsMember(host: String) throws {
        var state = F.state()
        #expect {
            _ = try state.setFocus(SetFocusParams(focus: nil, origin: FocusOrigin(host: host)), caller: F.user, now: F.now)
        } throws: { error in
            (error as? RuleError)?.path == ["origin", "host"]
        }
        #expect(state.focusReadBack(uid: F.user.uid, now: F.now).active == nil)
    }
}
