import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

private typealias F = Fixtures

/// The per-uid limits: one uid running flat out never takes another's interactions,
/// apps or marks, and every table shrinks with what it holds.
@Suite struct FairShareTests {
    static let nobody = Caller(uid: 65534, gid: 65534, pid: 20, isAdministrator: false)

    static func configuration(
        maxInteractions: Int = 1_000_000,
        perUID: Int = 500_000,
        apps: Int = 256,
        silenced: Int = 10_000
    ) -> CoreConfiguration {
        CoreConfiguration(
            timeZone: .utc,
            maxInteractions: maxInteractions,
            maxInteractionsPerUID: perUID,
            maxAppsPerUID: apps,
            maxSilencedMarksPerUID: silenced
        )
    }

    @Test func aUidAtItsLimitEvictsItsOwnOldestNeverAnothers() throws {
        var state = F.state(Self.configuration(perUID: 3))
        try state.donate(F.message("root-1"), caller: F.admin)
        for index in 0..<10 {
            try state.donate(F.message("n\(index)"), caller: Self.nobody, now: F.now + Double(index + 1))
        }
        #expect(state.interactions.count(of: Self.nobody.uid) == 3)
        #expect(state.interactions.count(of: F.admin.uid) == 1)
        #expect(ruleError { try state.update("root-1", caller: F.admin) } == nil)
        #expect(ruleError { try state.update("n6", caller: Self.nobody) }?.code == .interactionNotFound)
        #expect(ruleError { try state.update("n7", caller: Self.nobody) } == nil)
        #expect(state.fairShares.evictedAtUIDLimit == 7)
        #expect(state.evictedCount == 7)
    }

    @Test func atTheStoreLimitTheLargestSharePaysNotAUidWithinItsShare() throws {
        // The issue's case: uid 65534 donating 2,000 used to evict all of root's.
        var state = F.state(Self.configuration(maxInteractions: 2000))
        for index in 0..<100 {
            try state.donate(F.message("root-\(index)"), caller: F.admin)
        }
        for index in 0..<2000 {
            try state.donate(F.message("n\(index)"), caller: Self.nobody, now: F.now + 1)
        }
        #expect(state.interactionCount == 2000)
        #expect(state.interactions.count(of: F.admin.uid) == 100)
        #expect(state.interactions.count(of: Self.nobody.uid) == 1900)
        #expect(ruleError { try state.update("root-0", caller: F.admin) } == nil)
        #expect(ruleError { try state.update("n99", caller: Self.nobody) }?.code == .interactionNotFound)
        #expect(state.fairShares.evictedAtLimit == 100)
        // Root donating now takes room from the largest share, 65534's, not its own.
        try state.donate(F.message("root-late"), caller: F.admin, now: F.now + 2)
        #expect(state.interactions.count(of: F.admin.uid) == 101)
        #expect(ruleError { try state.update("n100", caller: Self.nobody) }?.code == .interactionNotFound)
    }

    @Test func withEqualSharesTheDonorEvictsItsOwn() throws {
        var state = F.state(Self.configuration(maxInteractions: 4))
        try state.donate(F.message("u1"), caller: F.user)
        try state.donate(F.message("u2"), caller: F.user)
        try state.donate(F.message("o1"), caller: F.otherUser, now: F.now + 1)
        try state.donate(F.message("o2"), caller: F.otherUser, now: F.now + 1)
        try state.donate(F.message("o3"), caller: F.otherUser, now: F.now + 2)
        #expect(state.interactions.count(of: F.user.uid) == 2)
        #expect(ruleError { try state.update("o1", caller: F.otherUser) }?.code == .interactionNotFound)
    }

    @Test func anAppPastTheLimitIsRefusedWithAPointerAndDeletingOneMakesRoom() throws {
        var state = F.state(Self.configuration(apps: 2))
        try state.donate(F.message("a"), app: "org.example.a")
        try state.donate(F.message("b"), app: "org.example.b")
        try state.donate(F.message("b2"), app: "org.example.b")
        let error = ruleError { try state.donate(F.message("c"), app: "org.example.c") }
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["app"])
        #expect(error?.limit == 2)
        #expect(state.fairShares.appsRefused == 1)
        // Another uid is not counted against this one.
        try state.donate(F.message("c"), app: "org.example.c", caller: F.otherUser)
        _ = try state.deleteInteractions(.init(app: "org.example.a", all: true), caller: F.user, now: F.now)
        try state.donate(F.message("c"), app: "org.example.c")
    }

    @Test func focusAuthorizationsCountAsApps() throws {
        var state = F.state(Self.configuration(apps: 1))
        state.configuration.focusAuthorizationPolicy = .allow
        _ = try state.requestFocus(.init(app: "org.example.a", requestAuthorization: true), caller: F.user, now: F.now)
        _ = try state.requestFocus(.init(app: "org.example.a", requestAuthorization: true), caller: F.user, now: F.now)
        let error = ruleError {
            try state.requestFocus(.init(app: "org.example.b", requestAuthorization: true), caller: F.user, now: F.now)
        }
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["app"])
        #expect(error?.limit == 1)
    }

    @Test func appNamesAreForgottenWithTheirLastInteractionAndTheirSlotsReused() throws {
        var state = F.state(Self.configuration(apps: 100_000))
        for index in 0..<1000 {
            try state.donate(F.message("m"), app: "org.example.app\(index)")
            _ = try state.deleteInteractions(.init(app: "org.example.app\(index)", all: true), caller: F.user, now: F.now)
        }
        #expect(state.interactions.apps.count == 0)
        #expect(state.interactions.apps.names.count == 1)
        try state.donate(F.message("kept"), app: "org.example.kept")
        for index in 0..<10 {
            try state.donate(F.message("m"), app: "org.example.gone\(index)")
        }
        for index in 0..<10 {
            _ = try state.deleteInteractions(.init(app: "org.example.gone\(index)", all: true), caller: F.user, now: F.now)
        }
        #expect(state.interactions.apps.count == 1)
        #expect(ruleError { try state.update("kept", app: "org.example.kept") } == nil)
        // A free slot is a unique placeholder no request can name; read back, it stays free.
        let names = state.interactions.apps.names
        #expect(Set(names).count == names.count)
        let reread = AppNameTable(names: names)
        #expect(reread.count == 1)
        #expect(reread.id(of: "org.example.kept") == state.interactions.apps.id(of: "org.example.kept"))
    }

    @Test func silencedMarksStopAtTheUidsLimitAndLeaveOthersAlone() throws {
        var state = F.state(Self.configuration(silenced: 2))
        try state.focusOn(FocusConfiguration(name: "Work", allowedPeople: [], allowedApps: []))
        try state.focusOn(FocusConfiguration(name: "Work"), uid: F.otherUser.uid)
        for index in 0..<5 {
            try state.donate(F.message("m\(index)", conversation: "c\(index)"))
            _ = try state.update("m\(index)")
        }
        try state.donate(F.message("o", conversation: "c0"), caller: F.otherUser)
        _ = try state.update("o", caller: F.otherUser)
        #expect(state.silenced.count(of: F.user.uid) == 2)
        #expect(state.silenced.count(of: F.otherUser.uid) == 1)
        #expect(state.fairShares.silencedMarksRefused == 3)
    }

    @Test func messageTextIsKeptAsADigestAndStillTellsRetriesApart() throws {
        var state = F.state()
        try state.donate(F.message("m1"))
        let key = try #require(state.interactions.key(uid: F.user.uid, app: F.app, identifier: "m1"))
        guard case .sendMessage(let stored)? = state.interactions[key]?.interaction.intent else {
            Issue.record("m1 is not stored as a message")
            return
        }
        #expect(stored.content != "Lunch?")
        #expect(stored.content.map(ContentDigest.isDigest) == true)
        // The same text again is a retry; other text is a conflict.
        try state.donate(F.message("m1"))
        var other = F.message("m1")
        if case .sendMessage(var message) = other.intent {
            message.content = "Dinner?"
            other.intent = .sendMessage(message)
        }
        #expect(ruleError { try state.donate(other) }?.code == .identifierConflict)
        #expect(ContentDigest.of("Lunch?") != ContentDigest.of("Dinner?"))
        #expect(ContentDigest.of("Lunch?").utf8.count == 12 && ContentDigest.of("").utf8.count == 12)
        // Snapshots hold digests, and a retry after a restart compares with them: the bytes
        // are fixed (FNV-1a 64, six bits at a time from the low end, base64url).
        #expect(ContentDigest.of("Lunch at noon?") == "\u{0}vQlkfXXzKdJ")
        #expect(ContentDigest.of("Grüße aus Köln 👋") == "\u{0}e2NgOBikklD")
        #expect(ContentDigest.of(String(repeating: "long text ", count: 20)) == "\u{0}1eAW8egfBiO")
        #expect(ContentDigest.storing(ContentDigest.storing(F.message("m1"))) == ContentDigest.storing(F.message("m1")))
    }

    @Test func aRetryWithDuplicateNamesIsARetry() throws {
        var state = F.state()
        let record = try JSONParser.parse(#"{"a":1,"a":2}"#)
        let call = Interaction(
            identifier: "k1",
            direction: .incoming,
            intent: .startCall(StartCallIntent(contacts: [F.bo], callRecordToCallBack: record))
        )
        try state.donate(call)
        #expect(ruleError { try state.donate(call) } == nil)
    }

    @Test func theLockedStepHandsBackWhatItEvictedToFreeAfterTheLock() throws {
        var state = F.state(Self.configuration(perUID: 2))
        func released(_ identifier: String) throws -> Int {
            let donation = try HeraldState.prepareDonation(DonateParams(app: F.app, interaction: F.message(identifier)))
            guard case .done(_, let released) = try state.donate(donation, caller: Self.nobody, now: F.now, retry: nil) else {
                Issue.record("\(identifier) was not stored at once.")
                return -1
            }
            return released.count
        }
        #expect(try released("n0") == 0)
        #expect(try released("n1") == 0)
        #expect(try released("n2") == 1)
        #expect(try released("n3") == 1)
        #expect(state.interactions.count(of: Self.nobody.uid) == 2)
        // A retry evicts nothing.
        let retry = try HeraldState.prepareDonation(DonateParams(app: F.app, interaction: F.message("n3")))
        guard case .compare(let stored) = try state.donate(retry, caller: Self.nobody, now: F.now, retry: nil),
            case .done(_, let none) = try state.donate(
                retry, caller: Self.nobody, now: F.now, retry: DonationRetry.compare(retry, with: stored))
        else {
            Issue.record("A retry was not compared, then answered.")
            return
        }
        #expect(none.count == 0)
    }

    @Test func aRetryComparedOutsideTheLockIsUsedOnlyForTheInteractionItWasComparedWith() throws {
        var state = F.state()
        let donation = try HeraldState.prepareDonation(DonateParams(app: F.app, interaction: F.message("m1")))
        // A new identifier is stored at once.
        guard case .done = try state.donate(donation, caller: F.user, now: F.now, retry: nil) else {
            Issue.record("A first donation was not stored at once.")
            return
        }
        // Donated again without a verdict: the stored interaction comes back, to compare.
        guard case .compare(let stored) = try state.donate(donation, caller: F.user, now: F.now, retry: nil) else {
            Issue.record("A second donation did not ask for a comparison.")
            return
        }
        let retry = DonationRetry.compare(donation, with: stored)
        #expect(ruleError { _ = try state.donate(donation, caller: F.user, now: F.now, retry: retry) } == nil)
        // m1 deleted and donated anew with another text: the old verdict no longer applies.
        _ = try state.deleteInteractions(.init(app: F.app, identifiers: ["m1"]), caller: F.user, now: F.now)
        var other = F.message("m1")
        if case .sendMessage(var message) = other.intent {
            message.content = "Dinner?"
            other.intent = .sendMessage(message)
        }
        try state.donate(other)
        #expect(ruleError { _ = try state.donate(donation, caller: F.user, now: F.now, retry: retry) }?.code == .identifierConflict)
    }
}
