import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

@Suite("TickerAlarm: a Focus change a request makes due sooner wakes the ticker")
struct TickerAlarmTests {
    @Test("A change due before the sleep ends wakes it at once; one due after it, or none, does not")
    func wakesForAnEarlierChange() async throws {
        let alarm = TickerAlarm()
        let end = Date().addingTimeInterval(30)
        let awake = NIOLockedValueBox(false)
        let sleeper = Task {
            await alarm.sleep(for: .seconds(30), endingAt: end)
            awake.withLockedValue { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        alarm.focusChange(dueAt: nil)
        alarm.focusChange(dueAt: end.addingTimeInterval(1))
        try await Task.sleep(for: .milliseconds(200))
        let wokeTooSoon = awake.withLockedValue { $0 }
        #expect(!wokeTooSoon, "woken by a change due after the sleep's end")

        let announced = ContinuousClock.now
        alarm.focusChange(dueAt: end.addingTimeInterval(-29))
        await sleeper.value
        // Without the alarm the sleep lasts 30 s.
        #expect(ContinuousClock.now - announced < .seconds(10))
    }

    @Test("A sleep nothing interrupts lasts its delay, and the alarm serves the next sleep")
    func sleepsItsDelay() async throws {
        let alarm = TickerAlarm()
        let started = ContinuousClock.now
        await alarm.sleep(for: .milliseconds(200), endingAt: Date().addingTimeInterval(0.2))
        #expect(ContinuousClock.now - started >= .milliseconds(200))

        // A change announced between sleeps is no alarm for the next one.
        alarm.focusChange(dueAt: Date())
        let next = Task { await alarm.sleep(for: .seconds(30), endingAt: Date().addingTimeInterval(30)) }
        try await Task.sleep(for: .milliseconds(100))
        let announced = ContinuousClock.now
        alarm.focusChange(dueAt: Date().addingTimeInterval(1))
        await next.value
        #expect(ContinuousClock.now - announced < .seconds(10))
    }
}
