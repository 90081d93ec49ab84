import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct SettingsTests {
    typealias F = Fixtures

    @Test func summaryTimesAreValidatedAndSorted() throws {
        var state = F.state()
        let result = try state.setSummary(.init(apps: [F.app, F.app], times: ["18:00", "07:30", "18:00"]), caller: F.admin, now: F.now)
            .result
        #expect(result == SetSummaryResult(uid: 0, apps: [F.app], times: ["07:30", "18:00"], nextDelivery: F.now + 10 * 3600))
        for (bad, index) in [("24:00", 1), ("7:30", 1), ("07:60", 1), ("ab:cd", 1), ("07:300", 1)] {
            let error = ruleError { try state.setSummary(.init(apps: [F.app], times: ["08:00", bad]), caller: F.admin, now: F.now) }
            #expect(error?.code == .invalidParams)
            #expect(error?.path == ["times", .index(index)])
        }
        #expect(ruleError { try state.setSummary(.init(apps: [F.app], times: []), caller: F.admin, now: F.now) }?.path == ["times"])
        #expect(
            ruleError { try state.setSummary(.init(apps: ["x y"], times: ["08:00"]), caller: F.admin, now: F.now) }?.path == ["apps", 0])
    }

    @Test func nextSummaryIsInTheConfiguredTimeZone() {
        let schedule = SummarySchedule(apps: [F.app], times: [ClockTime(hour: 9, minute: 0), ClockTime(hour: 20, minute: 15)])
        let paris = ZoneRules(identifier: "Europe/Paris")!  // UTC+1 in January
        // 08:00Z is 09:00 in Paris: the next is 20:15 Paris, 19:15Z.
        #expect(schedule.nextDelivery(after: F.now, in: paris) == F.now + 11 * 3600 + 15 * 60)
        // After 20:15 Paris, tomorrow 09:00 Paris (08:00Z).
        #expect(schedule.nextDelivery(after: F.now + 12 * 3600, in: paris) == F.now + 24 * 3600)
        #expect(SummarySchedule().nextDelivery(after: F.now, in: paris) == nil)
    }

    @Test func capabilitiesDefaultAndMerge() throws {
        var state = F.state()
        let first = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now).result
        #expect(
            first
                == SetCapabilitiesResult(
                    app: F.app, uid: 1000, capabilities: Capabilities(communication: true, timeSensitive: true, critical: true)))
        let second = try state.setCapabilities(.init(app: F.app, uid: 1000, timeSensitive: false), caller: F.admin, now: F.now).result
        #expect(second.capabilities == Capabilities(communication: true, timeSensitive: false, critical: true))
        #expect(Capabilities.defaults == Capabilities(communication: true, timeSensitive: true, critical: false))
    }
}
