import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore

private typealias F = Fixtures

/// A replay's run of donations (``DonationRun``) leaves the state one donation after
/// another leaves: the same interactions with the same sequences, counts, app names,
/// forgotten marks and calls, under every limit.
@Suite struct DonationRunTests {
    struct Limits: CustomStringConvertible, Sendable {
        var total: Int
        var perUID: Int
        var apps: Int
        var description: String { "total \(total), per uid \(perUID), apps \(apps)" }
    }

    static let limits: [Limits] = [
        Limits(total: 1_000_000, perUID: 500_000, apps: 256),  // nothing evicted
        Limits(total: 1_000_000, perUID: 40, apps: 256),  // each uid its own oldest
        Limits(total: 70, perUID: 1_000, apps: 256),  // the largest share's oldest, among three uids
        Limits(total: 25, perUID: 30, apps: 256),  // both
        Limits(total: 1_000_000, perUID: 40, apps: 2),  // apps refused
        Limits(total: 1_000_000, perUID: 0, apps: 256),  // a donation evicts itself
    ]

    static let apps = ["org.example.chat", "org.example.mail", "org.example.phone", "org.example.sms"]
    static let callers = [F.user, F.otherUser, F.admin]

    enum Step {
        case donation(PreparedDonation, Caller, Date)
        /// A change other than a donation: the interaction at (uid, app, identifier) deleted.
        case deletion(UInt32, String, String)
        case prune(Date)
    }

    /// Donations from three uids and four apps with identifiers drawn from a small pool (so
    /// the same one comes again, as a retry or after an eviction), calls among them, and
    /// now and then another change ending the run; one long run in the middle.
    static func steps(_ random: inout SeededRandom, count: Int, from callers: [Caller] = callers) -> [Step] {
        var steps: [Step] = []
        var now = F.now
        for index in 0..<count {
            now += Double(random.next() % 2)
            let caller = callers[Int(random.next() % UInt64(callers.count))]
            let app = apps[Int(random.next() % UInt64(caller.uid == 0 ? 4 : 3))]
            let isQuiet = index > count / 3 && index < 2 * count / 3
            if !isQuiet, random.next() % 25 == 0 {
                steps.append(.deletion(caller.uid, app, "i\(random.next() % 120)"))
                continue
            }
            if !isQuiet, random.next() % 97 == 0 {
                steps.append(.prune(now))
                continue
            }
            let identifier = "i\(random.next() % 120)"
            var interaction =
                random.next() % 6 == 0
                ? F.call(identifier, contacts: [[F.bo, F.cy, F.dee][Int(random.next() % 3)]], date: now)
                : F.message(identifier, conversation: "c\(random.next() % 4)")
            interaction = ContentDigest.storing(interaction)
            // As a replay makes it, from the logged record: what it knows of the record
            // (an incoming call, donation metadata) read from the record's bytes.
            let record = EncodedInteraction(interaction)
            steps.append(.donation(PreparedDonation(recordedApp: app, record: record), caller, now))
        }
        return steps
    }

    /// `steps` applied one donation at a time, or with the donations of each run held in a
    /// ``DonationRun`` and stored at its end.
    static func apply(_ steps: [Step], _ limits: Limits, inRuns: Bool) -> HeraldState {
        var state = F.state(
            CoreConfiguration(
                timeZone: .utc, maxInteractions: limits.total, retention: 3600, maxInteractionsPerUID: limits.perUID,
                maxAppsPerUID: limits.apps))
        var run = DonationRun()
        var released = ReleasedInteractions()
        for step in steps {
            if case .donation(let donation, let caller, let now) = step {
                if inRuns {
                    state.donate(donation, caller: caller, now: now, in: &run, releasing: &released)
                } else {
                    _ = try? state.donate(donation, caller: caller, now: now, releasing: &released)
                }
                continue
            }
            state.storeDonationRun(&run, parallel: nil)
            switch step {
            case .deletion(let uid, let app, let identifier):
                if let key = state.interactions.key(uid: uid, app: app, identifier: identifier) {
                    _ = state.interactions.remove(key)
                }
            case .prune(let now):
                state.pruneExpired(now: now)
            case .donation:
                break
            }
        }
        // Stored on two threads' worth of parts, as a restart stores a long run.
        state.storeDonationRun(&run) { count, work in
            for index in (0..<count).reversed() { work(index) }
        }
        return state
    }

    /// What can be told of the store from outside it, in donation order.
    static func described(_ state: HeraldState) -> [String] {
        var lines = state.interactions.map { key, stored in
            "\(key.uid) \(state.interactions.apps.name(of: key.app)) \(key.identifier) \(stored.sequence) \(stored.donatedAt.timeIntervalSince1970)"
        }
        lines.append("apps \(state.interactions.apps.names)")
        lines.append("count \(state.interactionCount) next \(state.interactions.nextSequence)")
        lines.append("earliest \(String(describing: state.interactions.earliestDonation))")
        let shares = state.fairShares
        lines.append(
            "evicted \(shares.evictedAtUIDLimit) \(shares.evictedAtLimit) refused \(shares.appsRefused) expired \(state.expiredCount)")
        for caller in callers {
            let uid = caller.uid
            lines.append("uid \(uid): \(state.interactions.count(of: uid)) in \(state.interactions.appCount(of: uid)) apps")
            for app in apps {
                let held = state.interactions.apps.id(of: app).map { state.interactions.holds(uid: uid, app: $0) } ?? false
                let forgotten = (0..<120).map { state.interactions.forgotten.cause(uid: uid, app: app, identifier: "i\($0)") }
                lines.append("  \(app) held \(held) forgotten \(forgotten.map { $0.map { "\($0.rawValue)" } ?? "-" }.joined())")
            }
        }
        for (key, stored) in state.interactions where CallHistory.isFiled(stored) {
            let earlier = state.interactions.calls.hasEarlierCall(
                than: key, caller: CallHistory.caller(of: stored.interaction)!, date: stored.effectiveDate, window: 600,
                inAnotherApp: true)
            lines.append("call \(key.uid) \(key.identifier) earlier \(earlier)")
        }
        return lines
    }

    @Test(arguments: limits)
    func aRunLeavesTheStateOneDonationAtATimeLeaves(_ limits: Limits) {
        var random = SeededRandom(for: "aRunLeavesTheStateOneDonationAtATimeLeaves \(limits)")
        let steps = Self.steps(&random, count: 3000)
        let oneByOne = Self.described(Self.apply(steps, limits, inRuns: false))
        let inRuns = Self.described(Self.apply(steps, limits, inRuns: true))
        #expect(oneByOne.count == inRuns.count)
        for (expected, got) in zip(oneByOne, inRuns) where expected != got {
            Issue.record("one by one: \(expected)\nin runs:    \(got)")
            break
        }
        #expect(oneByOne.first != nil)
    }

    @Test(arguments: [Limits(total: 1_000_000, perUID: 5_000, apps: 256), Limits(total: 1_000_000, perUID: 500_000, apps: 256)])
    func aRunLongerThanAChunkOfItsQueueLeavesTheStateOneDonationAtATimeLeaves(_ limits: Limits) {
        // One uid's 12,000 donations, a fifth of them retries of one of the 6,000 before:
        // held, evicted and retried across the queue's chunks of 4,096.
        var random = SeededRandom(for: "aRunLongerThanAChunk \(limits)")
        var steps: [Step] = []
        for index in 0..<12_000 {
            let identifier = index > 0 && random.next() % 5 == 0 ? "n\(index - 1 - Int(random.next() % UInt64(min(index, 6_000))))" : "n\(index)"
            let donation = PreparedDonation(recordedApp: F.app, interaction: ContentDigest.storing(F.message(identifier)))
            steps.append(.donation(donation, F.user, F.now + Double(index)))
        }
        let oneByOne = Self.described(Self.apply(steps, limits, inRuns: false))
        #expect(Self.described(Self.apply(steps, limits, inRuns: true)) == oneByOne)
        #expect(oneByOne.first?.hasPrefix("\(F.user.uid) ") == true)
    }

    @Test(arguments: [Limits(total: 50, perUID: 1_000, apps: 256), Limits(total: 30, perUID: 40, apps: 256)])
    func aRunOfOneUidAtTheTotalLimitEvictsItsOwnOldest(_ limits: Limits) {
        // One uid holding everything: the run, not the store, makes the total limit's choice.
        var random = SeededRandom(for: "aRunOfOneUidAtTheTotalLimitEvictsItsOwnOldest \(limits)")
        let steps = Self.steps(&random, count: 2000, from: [F.user])
        let oneByOne = Self.apply(steps, limits, inRuns: false)
        let inRuns = Self.apply(steps, limits, inRuns: true)
        #expect(oneByOne.fairShares.evictedAtLimit > 0)
        #expect(Self.described(inRuns) == Self.described(oneByOne))
    }

    @Test func aRunStoresWhatSurvivesItOnly() {
        // 1,000 donations of one uid at a limit of 100: 900 evicted within the run, never stored.
        var state = F.state(CoreConfiguration(timeZone: .utc, maxInteractionsPerUID: 100))
        var run = DonationRun()
        var released = ReleasedInteractions()
        for index in 0..<1000 {
            state.donate(
                PreparedDonation(recordedApp: F.app, interaction: ContentDigest.storing(F.message("m\(index)"))), caller: F.user,
                now: F.now + Double(index), in: &run, releasing: &released)
        }
        #expect(run.count == 100)
        #expect(state.interactionCount == 0)
        #expect(released.count == 900)
        state.storeDonationRun(&run, parallel: nil)
        #expect(run.isEmpty)
        #expect(state.interactionCount == 100)
        #expect(state.interactions.oldest?.key.identifier == "m900")
        #expect(state.fairShares.evictedAtUIDLimit == 900)
        #expect(state.interactions.forgotten.cause(uid: F.user.uid, app: F.app, identifier: "m899") == .evicted)
    }

    /// A replay hashes a uid and an app's name once for a stretch of their donations
    /// (``DonationRun/KeyHashes``): each key hash is still the one the key gives, when the
    /// uid or the app changes, comes back, or is named by another string of the same text.
    @Test func keyHashesFollowTheUIDAndTheApp() {
        var hashes = DonationRun.KeyHashes()
        let apps = Self.apps + Self.apps.reversed() + [Self.apps[0], Self.apps[0], String(Self.apps[0].reversed().reversed())]
        for (index, app) in apps.enumerated() {
            for uid in [UInt32(1000), 1000, 1001, 0] {
                let identifier = "i\(index % 3)"
                #expect(
                    hashes.hash(uid: uid, app: app, identifier: identifier) == DonationRun.keyHash(uid: uid, app: app, identifier: identifier))
            }
        }
        // Two apps, and two uids, do not share a key hash for one identifier.
        #expect(
            DonationRun.keyHash(uid: 1000, app: Self.apps[0], identifier: "i")
                != DonationRun.keyHash(uid: 1000, app: Self.apps[1], identifier: "i"))
        #expect(
            DonationRun.keyHash(uid: 1000, app: Self.apps[0], identifier: "i")
                != DonationRun.keyHash(uid: 1001, app: Self.apps[0], identifier: "i"))
    }
}
