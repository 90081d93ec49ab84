import Foundation
import HeraldProtocol

/// A uid's scheduled summary: which of its apps it holds, and at what local times it is
/// delivered. "Notifications can now be delivered at scheduled times in the day as a
/// summary."
struct SummarySchedule: Sendable, Hashable {
    private(set) var apps: [String] = []
    /// Sorted, without duplicates.
    private(set) var times: [ClockTime] = []

    init() {}

    init(apps: [String], times: [ClockTime]) {
        var seen = Set<String>()
        self.apps = apps.filter { seen.insert($0).inserted }
        self.times = Array(Set(times)).sorted()
    }

    /// Whether the summary holds `app`'s notifications (it needs a time to deliver them).
    func holds(_ app: String) -> Bool {
        !times.isEmpty && apps.contains(app)
    }

    /// The first summary time after `now`, in `timeZone`; nil without times.
    ///
    /// A time that does not exist on a day (skipped by a daylight-saving change) is
    /// taken as the next instant that does.
    func nextDelivery(after now: Date, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return times.compactMap { time in
            calendar.nextDate(
                after: now,
                matching: DateComponents(hour: time.hour, minute: time.minute, second: time.second),
                matchingPolicy: .nextTime
            )
        }.min()
    }
}

/// A local time of day, `"HH:MM"` or `"HH:MM:SS"`, from 00:00 to 23:59:59.
struct ClockTime: Sendable, Hashable, Comparable {
    var hour: Int
    var minute: Int
    var second: Int

    init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses two digits, a colon and two digits, optionally a colon and two more.
    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 8, bytes[2] == UInt8(ascii: ":") else { return nil }
        if bytes.count == 8, bytes[5] != UInt8(ascii: ":") { return nil }
        let digits = bytes.count == 8 ? [bytes[0], bytes[1], bytes[3], bytes[4], bytes[6], bytes[7]] : [bytes[0], bytes[1], bytes[3], bytes[4]]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let values = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hour = values[0] * 10 + values[1]
        let minute = values[2] * 10 + values[3]
        let second = values.count == 6 ? values[4] * 10 + values[5] : 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        self.init(hour: hour, minute: minute, second: second)
    }

    /// Seconds since midnight.
    var seconds: Int { hour * 3600 + minute * 60 + second }

    /// `"HH:MM"`, or `"HH:MM:SS"` when the seconds are not 0.
    var text: String {
        func two(_ value: Int) -> String { (value < 10 ? "0" : "") + String(value) }
        return two(hour) + ":" + two(minute) + (second == 0 ? "" : ":" + two(second))
    }

    var isTimeOfDay: Bool {
        (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
    }

    static func < (lhs: ClockTime, rhs: ClockTime) -> Bool {
        (lhs.hour, lhs.minute, lhs.second) < (rhs.hour, rhs.minute, rhs.second)
    }
}
