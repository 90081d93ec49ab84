import Testing

@testable import HeraldCore

@Suite struct ForgottenInteractionsTests {
    @Test func remembersWhyAnInteractionWasForgotten() {
        var forgotten = ForgottenInteractions(capacity: 8)
        forgotten.mark(uid: 1000, app: "org.example.chat", identifier: "m-1", cause: .deleted)
        forgotten.mark(uid: 1000, app: "org.example.chat", identifier: "m-2", cause: .expired)
        #expect(forgotten.cause(uid: 1000, app: "org.example.chat", identifier: "m-1") == .deleted)
        #expect(forgotten.cause(uid: 1000, app: "org.example.chat", identifier: "m-2") == .expired)
        #expect(forgotten.cause(uid: 1000, app: "org.example.chat", identifier: "m-3") == nil)
        // Another uid, or another app, with the same identifier is another interaction.
        #expect(forgotten.cause(uid: 1001, app: "org.example.chat", identifier: "m-1") == nil)
        #expect(forgotten.cause(uid: 1000, app: "org.example.mail", identifier: "m-1") == nil)
    }

    @Test func theLatestCauseWins() {
        var forgotten = ForgottenInteractions(capacity: 8)
        forgotten.mark(uid: 1, app: "a.b", identifier: "x", cause: .evicted)
        forgotten.mark(uid: 1, app: "a.b", identifier: "x", cause: .deleted)
        #expect(forgotten.cause(uid: 1, app: "a.b", identifier: "x") == .deleted)
    }

    @Test func eachUIDKeepsItsOwnBoundedRing() {
        var forgotten = ForgottenInteractions(capacity: 4)
        forgotten.mark(uid: 2, app: "a.b", identifier: "kept", cause: .deleted)
        for index in 0..<10 {
            forgotten.mark(uid: 1, app: "a.b", identifier: "m-\(index)", cause: .deleted)
        }
        #expect(forgotten.count(of: 1) == 4)
        // The oldest of uid 1 went first; uid 2's mark is untouched by uid 1's flood.
        #expect(forgotten.cause(uid: 1, app: "a.b", identifier: "m-5") == nil)
        #expect(forgotten.cause(uid: 1, app: "a.b", identifier: "m-6") == .deleted)
        #expect(forgotten.cause(uid: 1, app: "a.b", identifier: "m-9") == .deleted)
        #expect(forgotten.cause(uid: 2, app: "a.b", identifier: "kept") == .deleted)
    }

    @Test func capacityZeroKeepsNothing() {
        var forgotten = ForgottenInteractions(capacity: 0)
        forgotten.mark(uid: 1, app: "a.b", identifier: "x", cause: .deleted)
        #expect(forgotten.cause(uid: 1, app: "a.b", identifier: "x") == nil)
    }
}
