import Foundation
import Testing

@testable import HeraldCore

/// Compaction of the donation order a bounded number of positions at a time: under the
/// state's lock, a compaction of the whole order at once held every request up.
@Suite struct DonationOrderTests {
    static func entry(_ sequence: UInt64) -> DonationOrder.Entry {
        DonationOrder.Entry(key: InteractionKey(uid: 1000, app: 0, identifier: "m\(sequence)"), sequence: sequence)
    }

    /// 40,000 entries (three blocks), of which those whose sequence is a multiple of four are live.
    static func quarterLive() -> DonationOrder {
        var order = DonationOrder()
        for sequence in 0..<40_000 { order.append(entry(UInt64(sequence))) }
        return order
    }

    static func sequences(_ order: DonationOrder) -> [UInt64] {
        (order.head..<order.end).map { order[$0].sequence }
    }

    static func isLive(_ entry: DonationOrder.Entry) -> Bool { entry.sequence % 4 == 0 }

    @Test func aCompactionLooksAtNoMoreThanItsBudgetAtATime() {
        var order = Self.quarterLive()
        order.compact(liveCount: 10_000, threshold: 1024, budget: 1000, keeping: Self.isLive)
        #expect(order.isCompacting)
        #expect(order.count == 40_000)
        for _ in 1..<39 { order.compact(liveCount: 10_000, threshold: 1024, budget: 1000, keeping: Self.isLive) }
        #expect(order.isCompacting)
        order.compact(liveCount: 10_000, threshold: 1024, budget: 1000, keeping: Self.isLive)
        #expect(!order.isCompacting)
        let kept = Self.sequences(order) == Array(stride(from: 0, to: 40_000, by: 4))
        #expect(kept)
    }

    @Test func noCompactionStartsUntilStaleEntriesOutnumberLiveOnes() {
        var order = Self.quarterLive()
        order.compact(liveCount: 20_000, threshold: 1024, budget: 100_000, keeping: Self.isLive)
        #expect(!order.isCompacting)
        #expect(order.count == 40_000)
        order.compact(liveCount: 10_000, threshold: 40_000, budget: 100_000, keeping: Self.isLive)
        #expect(order.count == 40_000)
    }

    @Test func entriesAppendedOrPassedDuringACompactionKeepTheirOrder() {
        var order = Self.quarterLive()
        order.compact(liveCount: 10_000, threshold: 1024, budget: 5000, keeping: Self.isLive)
        // The oldest leave meanwhile, past the compaction's cursor, and new ones come.
        for _ in 0..<8000 { order.advanceHead() }
        for sequence in 40_000..<40_100 { order.append(Self.entry(UInt64(sequence))) }
        while order.isCompacting {
            order.compact(liveCount: 10_000, threshold: 1024, budget: 5000, keeping: Self.isLive)
        }
        // What the head had passed after the cursor copied it stays, stale (0..<5000); what
        // it passed before is gone (5000..<8000); the appended live ones come last.
        let expected = Array(stride(from: 0, to: 5000, by: 4)) + Array(stride(from: 8000, to: 40_100, by: 4))
        let kept = Self.sequences(order) == expected.map(UInt64.init)
        #expect(kept)
    }

    @Test func theHeadMovesPastTheRemovedOldestOnly() {
        var order = DonationOrder(reservingBlocks: false)
        for sequence in 0..<100 { order.append(Self.entry(UInt64(sequence))) }
        order.advanceHead(pastRemoved: 5)
        #expect(order.head == 0, "not the oldest")
        order.advanceHead(pastRemoved: 0)
        #expect(order.head == 1)
        for sequence in 1..<100 { order.advanceHead(pastRemoved: UInt64(sequence)) }
        #expect(order.count == 0)
        order.advanceHead(pastRemoved: 100)
        #expect(order.count == 0, "past the end, nothing to move")
    }
}
