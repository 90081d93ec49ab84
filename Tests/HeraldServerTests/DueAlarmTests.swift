import Foundation
import HeraldCore
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// The sleeps are on a ``ManualClock`` that the tests never move past them, so that only
/// the alarm can end them; the bounds on the real clock are loose (one minute), so that a
/// busy test machine still tells a wake from a sleep that lasts.
@Suite("DueAlarm: something a change makes due sooner wakes the daemon's sleep")
struct DueAlarmTests {
    @Test("Something due before the sleep's horizon wakes it; due at or after it, or nothing, does not")
    func wakesForAnEarlierThing() async throws {
        let alarm = DueAlarm()
        let clock = ManualClock()
        let horizon = clock.now().addingTimeInterval(120)
        let awake = NIOLockedValueBox(false)
        let sleeper = Task {
            await alarm.sleep(until: horizon, on: clock)
            awake.withLockedValue { $0 = true }
        }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        alarm.due(at: nil)
        alarm.due(at: horizon)
        alarm.due(at: horizon.addingTimeInterval(1))
        try await Task.sleep(for: .milliseconds(200))
        let wokeTooSoon = awake.withLockedValue { $0 }
        #expect(!wokeTooSoon, "woken by something due at or after the sleep's horizon")

        let announced = ContinuousClock.now
        alarm.due(at: horizon.addingTimeInterval(-119))
        await sleeper.value
        #expect(ContinuousClock.now - announced < .seconds(60))
        #expect(clock.sleeperCount == 0, "the clock's sleep was cancelled")
    }

    @Test("The sleep ends when the clock reaches its horizon")
    func endsAtTheHorizon() async throws {
        let alarm = DueAlarm()
        let clock = ManualClock()
        let horizon = clock.now().addingTimeInterval(3600)
        let sleeper = Task { await alarm.sleep(until: horizon, on: clock) }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        clock.advance(by: 3599)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 1)
        await sleeper.value
    }

    @Test("Something announced between sleeps ends the next one at once when due before its horizon, and only then")
    func announcedBetweenSleeps() async throws {
        let alarm = DueAlarm()
        let clock = ManualClock()
        // As while the daemon makes its round: a request changed the state after the round
        // read it.
        alarm.due(at: clock.now().addingTimeInterval(1))
        var started = ContinuousClock.now
        await alarm.sleep(until: clock.now().addingTimeInterval(120), on: clock)
        #expect(ContinuousClock.now - started < .seconds(60))

        // Spent: the next sleep, after something announced due later, lasts until its horizon.
        alarm.due(at: clock.now().addingTimeInterval(3600))
        let sleeper = Task { await alarm.sleep(until: clock.now().addingTimeInterval(2), on: clock) }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        clock.advance(by: 2)
        await sleeper.value
        alarm.ring()
        started = ContinuousClock.now
        await alarm.sleep(until: clock.now().addingTimeInterval(120), on: clock)
        #expect(ContinuousClock.now - started < .seconds(60), "a ring ends the next sleep at once")
    }
}
