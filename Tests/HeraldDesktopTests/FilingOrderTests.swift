import HeraldDesktop
import Testing

/// The order of filings the gateway's queues keep: oldest first, an id removed or filed
/// again passed over, and what is passed over dropped before it can pile up.
@Suite struct FilingOrderTests {
    @Test func oldestFirstPastWhatLeftOutOfTurn() {
        var order = FilingOrder<Int>()
        for id in 1...5 { order.file(id) }
        order.remove(2)
        order.file(1)  // filed again: now last
        #expect(order.first() == 3)
        #expect(order.first() == 3, "first() leaves it filed")
        var popped: [Int] = []
        while let id = order.popFirst() { popped.append(id) }
        #expect(popped == [3, 4, 5, 1])
        #expect(order.first() == nil && order.entryCount == 0)
    }

    /// One id filed 100,000 times, or filed and removed as often, leaves at most 128
    /// entries; ids filed once each keep theirs, in order, through the compactions.
    @Test func whatIsPassedOverDoesNotPileUp() {
        var order = FilingOrder<Int>()
        for id in 1000..<1100 { order.file(id) }
        for _ in 0..<100_000 { order.file(7) }
        #expect(order.entryCount <= 2 * 101)
        for _ in 0..<100_000 {
            order.file(8)
            order.remove(8)
        }
        #expect(order.entryCount <= 2 * 101)
        var popped: [Int] = []
        while let id = order.popFirst() { popped.append(id) }
        #expect(popped == Array(1000..<1100) + [7])
    }
}
