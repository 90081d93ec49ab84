import Foundation
import Testing

@testable import HeraldServer

/// The daemon sleeps until the next thing due, however far, up to its longest sleep; not
/// once a second.
@Suite struct AlarmHorizonTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func untilTheNextThingDue() {
        #expect(HeraldServer.horizon(next: now + 0.25, now: now) == now + 0.25)
        #expect(HeraldServer.horizon(next: now + 5, now: now) == now + 5)
        #expect(HeraldServer.horizon(next: now + 3599, now: now) == now + 3599)
    }

    @Test func theLongestSleepWhenNothingIsDueSooner() {
        #expect(HeraldServer.horizon(next: nil, now: now) == now + HeraldServer.longestSleep)
        #expect(HeraldServer.horizon(next: now + 86_400, now: now) == now + HeraldServer.longestSleep)
    }

    @Test func aSecondWhenSomethingIsStillDueAfterTheRound() {
        // Never a spin: what the round could not do is tried again a second later.
        #expect(HeraldServer.horizon(next: now - 10, now: now) == now + 1)
        #expect(HeraldServer.horizon(next: now, now: now) == now + 1)
    }
}
