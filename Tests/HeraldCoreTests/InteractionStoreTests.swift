import Foundation
import HeraldProtocol
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
