import FoundationEssentials
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
    /// A time a daylight-saving change repeats is due at each of its occurrences; a time
    /// it skips, at the end of the change's gap (``LocalTime/instants(day:seconds:in:)``).
    /// That is `Calendar.nextDate` with `.nextTime` but for changes that are not one hour
    /// on the hour or that cross midnight (Chatham, Lord Howe, Troll, Nuuk), where
    /// `Calendar` takes a later whole hour or misses the time that day.
    func nextDelivery(after now: Date, in zone: ZoneRules) -> Date? {
        guard !times.isEmpty else { return nil }
        let today = LocalTime.day(of: now, in: zone)
        // A day's times come before the next day's; yesterday's too when the clock was set back.
        for day in (today - 1)...(today + 2) {
            let next = times.lazy.flatMap { LocalTime.instants(day: day, seconds: $0.seconds, in: zone) }.filter { $0 > now }.min()
            if let next { return next }
        }
        return nil
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
