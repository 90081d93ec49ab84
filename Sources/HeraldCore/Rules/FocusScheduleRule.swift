import Foundation
import HeraldProtocol

/// A Focus schedule as the rules read it: the weekdays it starts on and its local start
/// and end times. A window starts on a listed day at `start` and ends at `end` the same
/// day, or the next day when `end` is not after `start` (spanning midnight).
///
/// Local times are read in the daemon's time zone (`--time-zone`), through `Calendar`: a
/// time a daylight-saving change skips is taken as the next instant that exists (02:30
/// on the last Sunday of March in Europe/Berlin is 03:00), a time it repeats as its first
/// occurrence — as the summary schedule does.
struct FocusScheduleRule: Sendable, Hashable {
    /// Calendar weekdays, 1 (Sunday) … 7 (Saturday).
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

    /// The windows that start on the local days from `firstDay` to `lastDay` days after
    /// the day of `now` (negative: before), in start order.
    func windows(around now: Date, days range: ClosedRange<Int>, calendar: Calendar) -> [DateInterval] {
        let today = calendar.startOfDay(for: now)
        var windows: [DateInterval] = []
        for offset in range {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today),
                weekdays.contains(calendar.component(.weekday, from: day)),
                let startDate = Self.date(start, on: day, calendar: calendar)
            else { continue }
            let endDay = end > start ? day : calendar.date(byAdding: .day, value: 1, to: day) ?? day
            guard let endDate = Self.date(end, on: endDay, calendar: calendar), endDate > startDate else { continue }
            windows.append(DateInterval(start: startDate, end: endDate))
        }
        return windows
    }

    /// `time` on the local day starting at `day`: the next instant that exists when a
    /// daylight-saving change skips it, the first when it repeats it.
    static func date(_ time: ClockTime, on day: Date, calendar: Calendar) -> Date? {
        calendar.nextDate(
            after: day.addingTimeInterval(-1),
            matching: DateComponents(hour: time.hour, minute: time.minute, second: time.second),
            matchingPolicy: .nextTime,
            repeatedTimePolicy: .first
        )
    }
}
