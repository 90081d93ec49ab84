import Foundation
import Testing

@testable import HeraldServer

/// The ticker wakes just past the next Focus change when it comes within a second, so a
/// change by itself is made on time, not up to a second late.
@Suite struct TickDelayTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aSecondWhenNoChangeIsDueSooner() {
        #expect(HeraldServer.tickDelay(until: nil, now: now) == .seconds(1))
        #expect(HeraldServer.tickDelay(until: now + 5, now: now) == .seconds(1))
        #expect(HeraldServer.tickDelay(until: now + 0.999, now: now) == .seconds(1))
    }

    @Test func justPastAChangeDueWithinTheSecond() {
        #expect(HeraldServer.tickDelay(until: now + 0.25, now: now) == .milliseconds(252))
        #expect(HeraldServer.tickDelay(until: now + 0.0005, now: now) == .milliseconds(3))
    }

    @Test func aSecondWhenAChangeIsStillDueAfterTheRound() {
        // Never a spin: what the round could not make is tried again a second later.
        #expect(HeraldServer.tickDelay(until: now - 10, now: now) == .seconds(1))
        #expect(HeraldServer.tickDelay(until: now, now: now) == .seconds(1))
    }
}
