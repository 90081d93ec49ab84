import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct DeleteTests {
    typealias F = Fixtures

    private func populated() throws -> HeraldState {
        var state = F.state()
        for (id, group) in [("a", "g1"), ("b", "g1"), ("c", "g2")] {
            var interaction = F.message(id)
            interaction.groupIdentifier = group
            try state.donate(interaction)
        }
        try state.donate(F.message("a"), caller: F.otherUser)
        return state
    }

    private func delete(_ state: inout HeraldState, _ p: DeleteInteractionsParams, caller: Caller = Fixtures.user) throws -> Int {
        try state.deleteInteractions(p, caller: caller, now: F.now).result.deleted
    }

    @Test func byIdentifiersGroupOrAll() throws {
        var state = try populated()
        #expect(try delete(&state, .init(app: F.app, identifiers: ["a", "zzz", "a"])) == 1)
        #expect(try delete(&state, .init(app: F.app, groupIdentifier: "g1")) == 1)
        #expect(try delete(&state, .init(app: F.app, all: true)) == 1)
        #expect(state.interactionCount == 1)
        #expect(ruleError { try state.update("a", caller: F.otherUser) } == nil)
    }

    @Test("A deletion found beforehand removes in steps, and keeps what was donated again since it was found")
    func aDeletionInStepsKeepsWhatWasDonatedSince() throws {
        var state = F.state()
        for index in 0..<10 { try state.donate(F.message("m\(index)")) }
        let deletion = try state.interactionDeletion(.init(app: F.app, all: true), caller: F.user)
        #expect(deletion.count == 10)
        #expect(state.interactionCount == 10, "finding changes nothing")

        // Between finding and removing, m0 is deleted and donated again: a new donation.
        #expect(try delete(&state, .init(app: F.app, identifiers: ["m0"])) == 1)
        try state.donate(F.message("m0"))
        let steps = deletion.steps(of: 4)
        #expect(steps.count == 3)
        #expect(steps.reduce(0) { $0 + state.delete($1) } == 9)
        #expect(state.interactionCount == 1)
        #expect(ruleError { try state.update("m0") } == nil, "the new m0 is kept")
        #expect(ruleError { try state.update("m1") }?.code == .interactionNotFound)
    }

    @Test func anotherUidDeletesNothingOfOurs() throws {
        var state = try populated()
        #expect(try delete(&state, .init(app: F.app, all: true), caller: F.otherUser) == 1)
        #expect(state.interactionCount == 3)
    }

    @Test func exactlyOneSelector() throws {
        var state = try populated()
        let none = ruleError { try delete(&state, .init(app: F.app)) }
        #expect(none?.code == .invalidParams)
        #expect(none?.path == ["identifiers"], "nothing given points at the first of the choice")
        let two = ruleError { try delete(&state, .init(app: F.app, identifiers: ["a"], all: true)) }
        #expect(two?.path == ["all"])
        let allFalse = ruleError { try delete(&state, .init(app: F.app, all: false)) }
        #expect(allFalse?.path == ["all"])
    }

    @Test func aDeletedCallIsNoLongerAnEarlierCall() throws {
        var state = F.state()
        try state.focusOn(FocusConfiguration(name: "Work"))
        try state.donate(F.call("k1"))
        _ = try state.deleteInteractions(.init(app: F.app, identifiers: ["k1"]), caller: F.user, now: F.now)
        try state.donate(F.call("k2"), now: F.now + 10)
        #expect(try state.update("k2", now: F.now + 10).result.delivery.codes == ["silencedByFocus"])
    }
}
