import HeraldDesktop
import Testing

/// Sends in flight and their deadlines: answered ones passed over, late ones taken out in
/// the order sent, and poll's timeout always the next one still in flight.
@Suite struct SendsInFlightTests {
    static let start = ContinuousClock.now

    @Test func theNextDeadlineIsTheFirstSendStillInFlight() {
        var sends = SendsInFlight<String>(lateAfter: .seconds(10))
        sends.add("a", number: 1, now: Self.start)
        sends.add("b", number: 2, now: Self.start + .seconds(2))
        sends.add("c", number: 3, now: Self.start + .seconds(4))
        sends.answered("a", number: 1)
        #expect(sends.pollTimeoutMilliseconds(now: Self.start) == 12_001)
        sends.answered("b", number: 2)
        #expect(sends.pollTimeoutMilliseconds(now: Self.start) == 14_001)
        // An answer to an older send of a key leaves its newer one in flight.
        sends.add("c", number: 4, now: Self.start + .seconds(5))
        sends.answered("c", number: 3)
        #expect(sends["c"] == 4 && sends.count == 1)
        let late = sends.markLate(now: Self.start + .seconds(15))
        #expect(late == ["c"])
        #expect(sends.count == 0)
        #expect(sends.pollTimeoutMilliseconds(now: Self.start) == -1)
    }

    @Test func lateSendsAreTakenOutInTheOrderSentAndNoEarlier() {
        var sends = SendsInFlight<Int>(lateAfter: .seconds(10))
        for key in 0..<3000 { sends.add(key, number: key, now: Self.start + .milliseconds(key)) }
        let early = sends.markLate(now: Self.start + .seconds(9))
        #expect(early.isEmpty)
        let late = sends.markLate(now: Self.start + .seconds(10) + .milliseconds(1999))
        #expect(late == Array(0..<2000))
        #expect(sends.count == 1000)
        #expect(sends.pollTimeoutMilliseconds(now: Self.start + .seconds(10) + .milliseconds(1999)) == 2)
        sends.removeAll()
        #expect(sends.count == 0 && sends.pollTimeoutMilliseconds(now: Self.start) == -1)
    }
}
