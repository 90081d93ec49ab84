import Foundation
import HeraldTesting
import Testing

@testable import HeraldCore

/// Herald's reading of the system's tz database held to Foundation's `TimeZone` (ICU's
/// copy of the same database) for every zone both know, and the summary's next time held
/// to `Calendar.nextDate`, which it replaces.
@Suite struct ZoneRulesTests {
    /// 2020-01-01 to 2031-01-01: past changes, today's rules, and years only the footer covers.
    static let span = (start: 1_577_836_800.0, end: 1_924_992_000.0)

    /// The database's zone names that Foundation knows too: its files but `posix/` and
    /// `right/` (copies, the latter counting leap seconds) and those that are not TZif.
    static let zoneNames: [String] = {
        let folder = "/usr/share/zoneinfo"
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var names: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path == "posix" || path == "right" {
                enumerator.skipDescendants()
                continue
            }
            guard let handle = FileHandle(forReadingAtPath: folder + "/" + path),
                let magic = try? handle.read(upToCount: 4), magic == Data("TZif".utf8),
                TimeZone(identifier: path) != nil
            else { continue }
            names.append(path)
        }
        return names.sorted()
    }()

    /// Foundation's changes of the offset in the span; a transition that keeps the offset
    /// (a new abbreviation, or standard and daylight-saving time trading places) is none.
    static func foundationChanges(_ zone: TimeZone) -> [Date] {
        var changes: [Date] = []
        var date = Date(timeIntervalSince1970: span.start)
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < span.end {
            if zone.secondsFromGMT(for: next) != zone.secondsFromGMT(for: next - 1) { changes.append(next) }
            date = next
        }
        return changes
    }

    static func changes(_ zone: ZoneRules) -> [Date] {
        var changes: [Date] = []
        var date = Date(timeIntervalSince1970: span.start)
        while let next = zone.nextChange(after: date), next.timeIntervalSince1970 < span.end {
            changes.append(next)
            date = next
        }
        return changes
    }

    @Test func everyZoneHasFoundationsChangesAndOffsets() throws {
        #expect(Self.zoneNames.count > 300, "the tz database (Debian's tzdata) is installed")
        var differing: [String] = []
        for name in Self.zoneNames {
            let expected = try #require(TimeZone(identifier: name))
            guard let zone = ZoneRules(identifier: name) else {
                differing.append("\(name): not read")
                continue
            }
            let changes = Self.changes(zone)
            let expectedChanges = Self.foundationChanges(expected)
            if changes != expectedChanges {
                differing.append("\(name): changes \(changes.prefix(3)) … against \(expectedChanges.prefix(3)) …")
                continue
            }
            // Each change and the second before it, and an instant every 31 hours (a
            // different hour of each day).
            var instants = changes.flatMap { [$0, $0 - 1] }
            instants += stride(from: Self.span.start, to: Self.span.end, by: 31 * 3600).map { Date(timeIntervalSince1970: $0) }
            if let wrong = instants.first(where: { zone.secondsFromUTC(at: $0) != expected.secondsFromGMT(for: $0) }) {
                differing.append("\(name): at \(wrong) \(zone.secondsFromUTC(at: wrong)) s against \(expected.secondsFromGMT(for: wrong)) s")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(Self.zoneNames.count) zones differ:\n\(differing.joined(separator: "\n"))")
    }

    @Test func summaryTimesAreCalendarsNextDates() throws {
        var random = SeededRandom(for: "summaryTimesAreCalendarsNextDates")
        let names = Self.zoneNames
        try #require(!names.isEmpty)
        var differences: [String] = []
        for _ in 0..<3_000 {
            let name = names.randomElement(using: &random)!
            let zone = try #require(ZoneRules(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: name))
            // Near a change half the time: its skipped and repeated hours.
            var now = Date(timeIntervalSince1970: Double.random(in: Self.span.start..<Self.span.end, using: &random).rounded(.down))
            if Bool.random(using: &random), let change = zone.nextChange(after: now) {
                now = change + Double(Int.random(in: -3 * 3600...3 * 3600, using: &random))
            }
            let times = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                ClockTime(hour: Int.random(in: 0..<24, using: &random), minute: [0, 15, 30, 45, 59].randomElement(using: &random)!)
            }
            let expected = times.compactMap {
                calendar.nextDate(
                    after: now, matching: DateComponents(hour: $0.hour, minute: $0.minute, second: $0.second), matchingPolicy: .nextTime)
            }.min()
            let next = SummarySchedule(apps: ["a"], times: times).nextDelivery(after: now, in: zone)
            guard next != expected else { continue }
            // Calendar misses a time skipped or repeated by a change that is not one hour on
            // the hour (Chatham, Lord Howe, Troll) or that crosses midnight (Nuuk): Herald's
            // is then earlier, a time's occurrence or the end of the gap that skipped it.
            let found = try #require(next, "\(name) after \(now), times \(times.map(\.text))")
            let seconds = Int(found.timeIntervalSince1970) + zone.secondsFromUTC(at: found)
            let clockReadsATime = times.contains { $0.seconds == (seconds % 86_400 + 86_400) % 86_400 }
            let endsAGap = zone.nextChange(after: found - 1) == found && zone.secondsFromUTC(at: found) > zone.secondsFromUTC(at: found - 1)
            #expect(found < (expected ?? .distantFuture) && (clockReadsATime || endsAGap), "\(name) after \(now), times \(times.map(\.text)): \(found), Calendar \(String(describing: expected))")
            differences.append(name)
        }
        print("summaryTimesAreCalendarsNextDates: \(differences.count) of 3000 earlier than Calendar's, in \(Set(differences).sorted())")
    }

    @Test func aSkippedSummaryTimeIsTheEndOfTheGap() throws {
        // Chatham's clock goes from 02:45 to 03:45 on 2022-09-25 (2022-09-24 13:59:59Z is 02:44:59).
        let chatham = try #require(ZoneRules(identifier: "Pacific/Chatham"))
        let schedule = SummarySchedule(apps: ["a"], times: [ClockTime(hour: 2, minute: 59)])
        #expect(schedule.nextDelivery(after: Date(timeIntervalSince1970: 1_664_027_999), in: chatham) == Date(timeIntervalSince1970: 1_664_028_000))
    }

    @Test func footerRulesReadAsPOSIXDescribesThem() throws {
        let berlin = try #require(PosixZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(berlin.standardOffset == 3600 && berlin.daylightSaving?.offset == 7200)
        // 2027-03-28 01:00Z and 2027-10-31 01:00Z.
        #expect(berlin.nextChange(after: 1_798_761_600) == 1_806_195_600)
        #expect(berlin.nextChange(after: 1_806_195_600) == 1_824_944_400)
        #expect(berlin.offset(at: 1_806_195_599) == 3600 && berlin.offset(at: 1_806_195_600) == 7200)
        // Daylight-saving time all year (tzcode's own example): no change ever.
        let allYear = try #require(PosixZoneRule(parsing: "EST5EDT4,0/0,J365/25"))
        #expect(allYear.offset(at: 1_798_761_600) == -4 * 3600 && allYear.offset(at: 1_806_195_600) == -4 * 3600)
        #expect(allYear.nextChange(after: 1_798_761_600) == nil)
        #expect(PosixZoneRule(parsing: "<+0330>-3:30")?.standardOffset == 12_600)
        for bad in ["", "CE-1", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+03-3", "CET-25"] {
            #expect(PosixZoneRule(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func namesOutsideTheDatabaseAreNoZones() {
        for name in ["", "Nowhere/City", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "Europe/./Berlin", "iso3166.tab"] {
            #expect(ZoneRules(identifier: name) == nil, "\(name)")
        }
        #expect(ZoneRules(identifier: "UTC")?.secondsFromUTC(at: Date()) == 0)
        #expect(ZoneRules(identifier: "x", tzif: Array("TZif2".utf8)) == nil)
    }
}
