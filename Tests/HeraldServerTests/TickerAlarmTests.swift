import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// The sleeps are long (two minutes) and the bounds loose (one minute), so that a test
/// machine busy enough to hold a task up for seconds still tells a wake from a full sleep.
@Suite("TickerAlarm: a Focus change a request makes due sooner wakes the ticker")
struct TickerAlarmTests {
    @Test("A change due before the sleep's horizon wakes it; one due at or after it, or none, does not")
    func wakesForAnEarlierChange() async throws {
        let alarm = TickerAlarm()
        let horizon = Date().addingTimeInterval(120)
        let awake = NIOLockedValueBox(false)
        let sleeper = Task {
            await alarm.sleep(for: .seconds(120), unlessAChangeIsDueBefore: horizon)
            awake.withLockedValue { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        alarm.focusChange(dueAt: nil)
        alarm.focusChange(dueAt: horizon)
        alarm.focusChange(dueAt: horizon.addingTimeInterval(1))
        try await Task.sleep(for: .milliseconds(200))
        let wokeTooSoon = awake.withLockedValue { $0 }
        #expect(!wokeTooSoon, "woken by a change due at or after the sleep's horizon")

        let announced = ContinuousClock.now
        alarm.focusChange(dueAt: horizon.addingTimeInterval(-119))
        await sleeper.value
        #expect(ContinuousClock.now - announced < .seconds(60))
    }

    @Test("A change announced between sleeps ends the next one at once when due before its horizon, and only then")
    func announcedBetweenSleeps() async throws {
        let alarm = TickerAlarm()
        var started = ContinuousClock.now
        await alarm.sleep(for: .milliseconds(200), unlessAChangeIsDueBefore: Date().addingTimeInterval(0.2))
        #expect(ContinuousClock.now - started >= .milliseconds(200))

        // As while the ticker makes its round: a request changed the state after the round
        // read it.
        alarm.focusChange(dueAt: Date().addingTimeInterval(1))
        started = ContinuousClock.now
        await alarm.sleep(for: .seconds(120), unlessAChangeIsDueBefore: Date().addingTimeInterval(120))
        #expect(ContinuousClock.now - started < .seconds(60))

        // Spent: the sleep after it, and one after a change due later, last their delay.
        started = ContinuousClock.now
        await alarm.sleep(for: .milliseconds(200), unlessAChangeIsDueBefore: Date().addingTimeInterval(0.2))
        alarm.focusChange(dueAt: Date().addingTimeInterval(3600))
        await alarm.sleep(for: .milliseconds(200), unlessAChangeIsDueBefore: Date().addingTimeInterval(0.2))
        #expect(ContinuousClock.now - started >= .milliseconds(400))
    }
}
