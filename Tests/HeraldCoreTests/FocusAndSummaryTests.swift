import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 28: a Focus and the scheduled summary both apply — the summary decides when a
/// notification arrives, the Focus how it is presented.
@Suite struct FocusAndSummaryTests {
    typealias F = Fixtures

    /// The user's summary holds F.app at 08:00 and 18:00 (F.now is 2027-01-15T08:00:00Z).
    private func state() throws -> HeraldState {
        var state = F.state()
        _ = try state.setSummary(.init(apps: [F.app], times: ["08:00", "18:00"], uid: 1000), caller: F.admin, now: F.now)
        return state
    }

    @Test func aNotificationAFocusSilencesIsHeldForTheSummaryNamingBoth() throws {
        var state = try state()
        try state.focusOn(FocusConfiguration(name: "Work"))
        let outcome = try state.update(nil)
        let delivery = outcome.result.delivery
        #expect(delivery.codes == ["silencedByFocus", "heldForSummary"])
        #expect(delivery.presentation == .summary && delivery.deliverAt == F.now + 10 * 3600)
        #expect(!delivery.sound && !delivery.lightsScreen && !delivery.breaksThroughFocus)
        #expect(delivery.reasons[0].message.contains("\u{201C}Work\u{201D}"))
        #expect(outcome.audit.reasons == ["silencedByFocus", "heldForSummary"])
        #expect(outcome.audit.focus == "Work")
        #expect(state.notificationCount == 1)
    }

    @Test func whatBreaksThroughTheSummaryButNotTheFocusIsQuietAtOnce() throws {
        var state = try state()
        var strict = FocusConfiguration(name: "Work")
        strict.allowTimeSensitive = false
        try state.focusOn(strict)
        #expect(try state.update(nil, F.content(.timeSensitive)).result.delivery.codes == ["silencedByFocus"])
        try state.donate(F.message())
        let message = try state.update(F.message().identifier).result.delivery
        #expect(message.codes == ["silencedByFocus"] && message.presentation == .quiet)
        // The audit names the Focus only when it silenced the notification.
        #expect(try state.update(nil, F.content(.passive)).audit.focus == nil)
    }

    @Test func aSummaryDeliveredDuringAFocusIsQuietAndCountsWhatWasHeld() throws {
        var state = try state()
        try state.focusOn(FocusConfiguration(name: "Work"))
        _ = try state.update(nil)
        _ = try state.update(nil)
        let (outcome, summaries) = try state.deliverSummary(.init(), caller: F.admin, now: F.now + 60)
        #expect(outcome.result.delivered == 2)
        #expect(summaries.count == 1)
        #expect(summaries.first?.presentation == .quiet && summaries.first?.focus == "Work")
    }

    @Test func aSummaryAtItsTimeIsQuietOnlyWhileAFocusIsOn() throws {
        var state = try state()
        var until = FocusConfiguration(name: "Sleep")
        until.until = F.now + 3600
        try state.focusOn(until)
        _ = try state.update(nil)
        // 18:00: the Focus ended at 09:00, so the summary is an alert again.
        let evening = state.deliverDueSummaries(now: F.now + 10 * 3600)
        #expect(evening.map(\.notifications.count) == [1])
        #expect(evening.first?.presentation == .alert && evening.first?.focus == nil)

        try state.focusOn(FocusConfiguration(name: "Sleep"), now: F.now + 11 * 3600)
        _ = try state.update(nil, now: F.now + 11 * 3600)
        let morning = state.deliverDueSummaries(now: F.now + 24 * 3600)
        #expect(morning.first?.presentation == .quiet && morning.first?.focus == "Sleep")
    }
}
