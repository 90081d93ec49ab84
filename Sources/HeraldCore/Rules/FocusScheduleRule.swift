import FoundationEssentials
import HeraldProtocol

/// A Focus schedule as the rules read it: the weekdays it starts on and its local start
/// and end times. A window starts on a listed day at `start` and ends at `end` the same
/// day, or the next day when `end` is not after `start` (spanning midnight).
///
/// Local times are read in the daemon's time zone (``ZoneRules/current``): a time a
/// daylight-saving change skips is taken as the next instant that exists (02:30 on the
/// last Sunday of March in Europe/Berlin is 03:00), a time it repeats as its first
/// occurrence — as the summary schedule does.
struct FocusScheduleRule: Sendable, Hashable {
    /// Weekdays, 1 (Sunday) … 7 (Saturday), as `Calendar` numbers them.
    var weekdays: Set<Int>
    var start: ClockTime
    var end: ClockTime

    /// The wire's day names, in `Calendar`'s weekday order (1 is Sunday).
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Reads and checks a schedule of the wire; errors point below `path`.
    init(_ schedule: FocusSchedule, at path: MemberPath) throws(RuleError) {
        guard let start = ClockTime(parsing: schedule.start) else {
            throw .invalidParams("start is \"HH:MM\" or \"HH:MM:SS\", from 00:00 to 23:59:59; got \"\(schedule.start)\".", at: path.appending("start"))
        }
        guard let end = ClockTime(parsing: schedule.end) else {
            throw .invalidParams("end is \"HH:MM\" or \"HH:MM:SS\", from 00:00 to 23:59:59; got \"\(schedule.end)\".", at: path.appending("end"))
        }
        guard start != end else {
            throw .invalidParams("start and end are the same time; a schedule needs a span (an end before the start ends on the next day).", at: path.appending("end"))
        }
        var weekdays = Set<Int>()
        if let days = schedule.days {
            guard !days.isEmpty else {
                throw .invalidParams("days needs at least one day (mon … sun); leave it out for every day.", at: path.appending("days"))
            }
            for (index, day) in days.enumerated() {
                guard let weekday = Self.dayNames.firstIndex(of: day) else {
                    throw .invalidParams("A day is one of mon, tue, wed, thu, fri, sat, sun; got \"\(day)\".", at: path.appending("days").appending(index))
                }
                weekdays.insert(weekday + 1)
            }
        } else {
            weekdays = Set(1...7)
        }
        self.init(weekdays: weekdays, start: start, end: end)
    }

    init(weekdays: Set<Int>, start: ClockTime, end: ClockTime) {
        self.weekdays = weekdays
        self.start = start
        self.end = end
    }

    /// The schedule as the wire has it: days in week order from Monday, omitted for every day.
    var wire: FocusSchedule {
        let order = [2, 3, 4, 5, 6, 7, 1]
        let days = weekdays.count == 7 ? nil : order.filter(weekdays.contains).map { Self.dayNames[$0 - 1] }
        return FocusSchedule(days: days, start: start.text, end: end.text)
    }

    /// The window that starts on local `day` (days since 1970-01-01 on the local
    /// calendar), if the schedule has one that day.
    ///
    /// Local times are turned into instants with the time zone's offsets (``LocalTime``).
    func window(onDay day: Int, in zone: ZoneRules) -> DateInterval? {
        guard weekdays.contains(LocalTime.weekday(of: day)) else { return nil }
        let startDate = LocalTime.instant(day: day, seconds: start.seconds, in: zone)
        let endDate = LocalTime.instant(day: end > start ? day : day + 1, seconds: end.seconds, in: zone)
        return endDate > startDate ? DateInterval(start: startDate, end: endDate) : nil
    }
}

/// Local days and times of a time zone as plain arithmetic on its offsets from UTC.
package enum LocalTime {
    /// The local day of `date`: days since 1970-01-01 on the local calendar.
    package static func day(of date: Date, in zone: ZoneRules) -> Int {
        let wall = date.timeIntervalSince1970 + Double(zone.secondsFromUTC(at: date))
        return Int((wall / 86_400).rounded(.down))
    }

    /// `Calendar`'s weekday of a local day: 1 is Sunday (1970-01-01 was a Thursday, 5).
    static func weekday(of day: Int) -> Int {
        ((day + 4) % 7 + 7) % 7 + 1
    }

    /// The instant the local clock reads `seconds` after the midnight starting `day`: the
    /// first when a daylight-saving change repeats it, the end of the change's gap when
    /// the change skips it (02:30 on a night the clock jumps from 02:00 to 03:00 is 03:00).
    static func instant(day: Int, seconds: Int, in zone: ZoneRules) -> Date {
        instants(day: day, seconds: seconds, in: zone).first!
    }

    /// Every instant the local clock reads `seconds` after the midnight starting `day`,
    /// ascending: two when a change repeats it; the end of the change's gap when one skips it.
    package static func instants(day: Int, seconds: Int, in zone: ZoneRules) -> [Date] {
        let wall = Double(day * 86_400 + seconds)
        // The offsets in force half a day either side hold every candidate.
        let offsets = [
            zone.secondsFromUTC(at: Date(timeIntervalSince1970: wall - 14 * 3600)),
            zone.secondsFromUTC(at: Date(timeIntervalSince1970: wall + 14 * 3600)),
        ]
        let candidates = Set(offsets).compactMap { offset -> Date? in
            let date = Date(timeIntervalSince1970: wall - Double(offset))
            return zone.secondsFromUTC(at: date) == offset ? date : nil
        }
        if !candidates.isEmpty { return candidates.sorted() }
        // Skipped: the first instant after the change.
        let before = Date(timeIntervalSince1970: wall - Double(offsets.max()!))
        return [zone.nextChange(after: before.addingTimeInterval(-1)) ?? before]
    }
}
