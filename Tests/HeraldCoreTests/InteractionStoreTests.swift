import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore

/// The store's own bookkeeping, across the block and shard boundaries that keep a
/// snapshot's copy from being copied whole on the next change.
@Suite struct InteractionStoreTests {
    static func message(_ identifier: String) -> Interaction {
        Interaction(identifier: identifier, direction: .incoming, intent: .sendMessage(SendMessageIntent(conversationIdentifier: "c")))
    }

    static func filled(_ count: Int) -> InteractionStore {
        var store = InteractionStore()
        let app = store.appID(interning: "org.example.chat")
        for index in 0..<count {
            store.insert(message("m\(index)"), uid: 1000, app: app, donatedAt: Date(timeIntervalSince1970: Double(index)))
        }
        return store
    }

    /// Both ways in (a snapshot's `insert`, a donation's `insertIfAbsent`) move the record
    /// into the table and file an incoming call, and only that, by its caller.
    @Test func anIncomingCallIsFiledByItsCallerWhicheverWayItIsStored() {
        let ann = Person(handle: PersonHandle(value: "ann@example.org", type: .emailAddress))
        func call(_ identifier: String, _ direction: InteractionDirection = .incoming) -> Interaction {
            Interaction(identifier: identifier, direction: direction, intent: .startCall(StartCallIntent(contacts: [ann])))
        }
        var store = InteractionStore()
        let app = store.appID(interning: "org.example.phone")
        let at = Date(timeIntervalSince1970: 1000)
        func key(_ identifier: String) -> InteractionKey { InteractionKey(uid: 1000, app: app, identifier: identifier) }
        func isEarlier(than identifier: String) -> Bool {
            store.calls.hasEarlierCall(than: key(identifier), caller: ann, date: at, window: 60)
        }
        store.insert(call("out", .outgoing), uid: 1000, app: app, donatedAt: at)
        store.insert(Self.message("m"), uid: 1000, app: app, donatedAt: at)
        #expect(!isEarlier(than: "later"), "an outgoing call and a message are not filed")
        store.insert(call("restored"), uid: 1000, app: app, donatedAt: at)
        #expect(isEarlier(than: "later"))
        #expect(!isEarlier(than: "restored"), "a call is not its own earlier call")
        #expect(store.insertIfAbsent(call("donated"), at: key("donated"), donatedAt: at) == nil)
        #expect(store.remove(key("restored")) != nil)
        #expect(isEarlier(than: "later"), "the donated call is filed too")
        #expect(store[key("donated")]?.interaction == call("donated"))
    }

    @Test func theOldestLeaveFirstAcrossBlocks() {
        var store = Self.filled(40_000)
        for expected in 0..<20_000 {
            guard store.removeOldest()?.key.identifier == "m\(expected)" else {
                Issue.record("removeOldest did not return m\(expected)")
                return
            }
        }
        #expect(store.count == 20_000)
        #expect(store.oldest?.key.identifier == "m20000")
        #expect(store.map(\.key.identifier).first == "m20000")
        #expect(store.map(\.key.identifier).last == "m39999")
    }

    /// A uid at its limit evicts its own oldest with every donation; when that is the
    /// store's oldest too, the store's order keeps no entry for it.
    @Test func evictingTheOldestOfAUIDLeavesNoStaleEntries() throws {
        var store = Self.filled(5_000)
        let app = try #require(store.key(uid: 1000, app: "org.example.chat", identifier: "x")).app
        for index in 5_000..<45_000 {
            store.insert(Self.message("m\(index)"), uid: 1000, app: app, donatedAt: Date(timeIntervalSince1970: Double(index)))
            guard store.removeOldest(of: 1000)?.key.identifier == "m\(index - 5_000)" else {
                Issue.record("removeOldest(of:) did not return m\(index - 5_000)")
                return
            }
        }
        #expect(store.count == 5_000)
        #expect(store.donationPositions.count == 5_000)
        #expect(store.oldest?.key.identifier == "m40000")
        // Deleted out of order, m40001 leaves a stale entry, skipped once m40000 is evicted.
        #expect(store.remove(InteractionKey(uid: 1000, app: app, identifier: "m40001")) != nil)
        #expect(store.removeOldest(of: 1000)?.key.identifier == "m40000")
        #expect(store.donationPositions.count == store.count + 1)
        #expect(store.oldest?.key.identifier == "m40002")
    }

    @Test func removalsOutOfOrderAreCompactedAndTheOrderKept() throws {
        var store = Self.filled(40_000)
        let app = try #require(store.key(uid: 1000, app: "org.example.chat", identifier: "x")).app
        // Remove three of every four, so stale entries outnumber live ones and compaction runs.
        for index in 0..<40_000 where index % 4 != 0 {
            #expect(store.remove(InteractionKey(uid: 1000, app: app, identifier: "m\(index)")) != nil)
        }
        #expect(store.count == 10_000)
        // Compacted a few positions per removal, so stale entries never reach twice the live ones.
        #expect(store.donationPositions.count <= 2 * store.count + 1024)
        let expected = stride(from: 0, to: 40_000, by: 4).map { "m\($0)" }
        let sameOrder = store.map(\.key.identifier) == expected
        #expect(sameOrder)
        store.insert(Self.message("late"), uid: 1000, app: app, donatedAt: Date())
        #expect(store.removeOldest()?.key.identifier == "m0")
        #expect(store.map(\.key.identifier).last == "late")
    }

    /// Random insertions (some under identifiers removed before) and every kind of removal,
    /// against a model: the order, the counts and the bound on stale entries hold while
    /// compactions run a few positions at a time, across blocks.
    @Test func randomChangesKeepTheOrderAndBoundTheStaleEntries() {
        var random = SeededRandom(for: "InteractionStoreTests.randomChangesKeepTheOrderAndBoundTheStaleEntries")
        var store = InteractionStore()
        let app = store.appID(interning: "org.example.chat")
        var model: [(uid: UInt32, identifier: String)] = []  // live, oldest first
        var removedIdentifiers: [(uid: UInt32, identifier: String)] = []
        var next = 0
        var agrees = true
        var bounded = true
        func key(_ live: (uid: UInt32, identifier: String)) -> InteractionKey {
            InteractionKey(uid: live.uid, app: app, identifier: live.identifier)
        }
        func check() {
            agrees = agrees && store.count == model.count
                && store.map { "\($0.key.uid)/\($0.key.identifier)" } == model.map { "\($0.uid)/\($0.identifier)" }
                && (1000...1002).allSatisfy { uid in store.count(of: uid) == model.count { $0.uid == uid } }
            bounded = bounded && store.donationPositions.count <= 3 * model.count + 3 * 1024
        }
        for step in 0..<120_000 {
            // The store grows, then mostly shrinks (stale entries pile up and compactions
            // run), then holds steady.
            let insertShare = step < 40_000 ? 80 : step < 80_000 ? 30 : 50
            let roll = Int.random(in: 0..<100, using: &random)
            let removal = roll < insertShare ? -1 : (roll - insertShare) * 100 / (100 - insertShare)
            switch removal {
            case -1:
                let uid = UInt32.random(in: 1000...1002, using: &random)
                var live = (uid: uid, identifier: "m\(next)")
                if roll % 10 == 0, let again = removedIdentifiers.popLast() { live = again } else { next += 1 }
                store.insert(Self.message(live.identifier), uid: live.uid, app: app, donatedAt: Date(timeIntervalSince1970: Double(step)))
                model.append(live)
            case 0..<70 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                agrees = agrees && store.remove(key(model[index])) != nil
                removedIdentifiers.append(model.remove(at: index))
            case 70..<80 where !model.isEmpty:
                agrees = agrees && store.removeOldest()?.key == key(model[0])
                removedIdentifiers.append(model.removeFirst())
            case 80..<90 where !model.isEmpty:
                let uid = UInt32.random(in: 1000...1002, using: &random)
                if let index = model.firstIndex(where: { $0.uid == uid }) {
                    agrees = agrees && store.removeOldest(of: uid)?.key == key(model[index])
                    removedIdentifiers.append(model.remove(at: index))
                }
            case 90..<100 where !model.isEmpty:
                var indices = Set<Int>()
                for _ in 0..<Int.random(in: 1...8, using: &random) { indices.insert(Int.random(in: 0..<model.count, using: &random)) }
                let entries = indices.compactMap { store.entry(at: key(model[$0])) }
                agrees = agrees && store.remove(entries) == indices.count
                for index in indices.sorted(by: >) { removedIdentifiers.append(model.remove(at: index)) }
            default:
                break
            }
            if step % 2000 == 0 { check() }
        }
        check()
        #expect(agrees)
        #expect(bounded)
    }

    @Test func insertIfAbsentStoresANewInteraction() {
        var store = Self.filled(10)
        let app = store.appID(interning: "org.example.chat")
        let date = Date(timeIntervalSince1970: 100)
        let key = InteractionKey(uid: 1000, app: app, identifier: "new")
        #expect(store.insertIfAbsent(Self.message("new"), at: key, donatedAt: date) == nil)
        #expect(store.count == 11)
        #expect(store.count(of: 1000) == 11)
        #expect(store[key]?.donatedAt == date)
        #expect(store.map(\.key.identifier).last == "new")
    }

    @Test func insertIfAbsentAnswersTheStoredOneAndChangesNothing() throws {
        var store = Self.filled(10)
        let app = store.appID(interning: "org.example.chat")
        let key = InteractionKey(uid: 1000, app: app, identifier: "m3")
        let before = try #require(store[key])
        let other = Interaction(
            identifier: "m3", direction: .outgoing,
            intent: .sendMessage(SendMessageIntent(conversationIdentifier: "d"))
        )
        #expect(store.insertIfAbsent(other, at: key, donatedAt: Date()) == before)
        #expect(store[key] == before)
        #expect(store.count == 10)
        #expect(store.count(of: 1000) == 10)
        #expect(store.map(\.key.identifier) == (0..<10).map { "m\($0)" })
        // The same identifier under another uid is another interaction.
        #expect(store.insertIfAbsent(other, at: InteractionKey(uid: 1001, app: app, identifier: "m3"), donatedAt: Date()) == nil)
        #expect(store.count == 11)
    }

    @Test func insertIfAbsentAfterACopyLeavesTheCopyAlone() {
        var store = Self.filled(100)
        let copy = store
        let app = store.appID(interning: "org.example.chat")
        func key(_ identifier: String) -> InteractionKey { InteractionKey(uid: 1000, app: app, identifier: identifier) }
        #expect(store.insertIfAbsent(Self.message("m5"), at: key("m5"), donatedAt: Date()) != nil)
        #expect(store.insertIfAbsent(Self.message("new"), at: key("new"), donatedAt: Date()) == nil)
        #expect(copy.count == 100)
        #expect(copy[key("new")] == nil)
        #expect(store.count == 101)
    }

    @Test func aCopyIsUntouchedByLaterChanges() throws {
        var store = Self.filled(1000)
        let copy = store
        let app = try #require(store.key(uid: 1000, app: "org.example.chat", identifier: "x")).app
        _ = store.removeOldest()
        _ = store.remove(InteractionKey(uid: 1000, app: app, identifier: "m500"))
        store.insert(Self.message("new"), uid: 1000, app: app, donatedAt: Date())
        #expect(copy.count == 1000)
        #expect(copy[InteractionKey(uid: 1000, app: app, identifier: "m500")] != nil)
        #expect(copy.map(\.key.identifier) == (0..<1000).map { "m\($0)" })
        #expect(store.count == 999)
    }
}

/// The store's inserts for an interaction not yet encoded, as the tests here write them.
extension InteractionStore {
    /// Adds `interaction`, whose identifier is set, encoded as the store keeps it: a
    /// message's text only as its digest.
    @discardableResult
    mutating func insert(_ interaction: Interaction, uid: UInt32, app: AppNameTable.ID, donatedAt: Date) -> InteractionKey {
        insert(
            EncodedInteraction(ContentDigest.storing(interaction)), identifier: interaction.identifier!, uid: uid, app: app,
            donatedAt: donatedAt)
    }

    mutating func insertIfAbsent(_ interaction: Interaction, at key: InteractionKey, donatedAt: Date) -> StoredInteraction? {
        precondition(interaction.identifier == key.identifier, "An interaction is stored under its identifier.")
        return insertIfAbsent(EncodedInteraction(ContentDigest.storing(interaction)), at: key, donatedAt: donatedAt)
    }
}
