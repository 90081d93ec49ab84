import Foundation
import HeraldProtocol

/// The host's scheduled summary: which apps it holds, and at what local times it is
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
                matching: DateComponents(hour: time.hour, minute: time.minute, second: 0),
                matchingPolicy: .nextTime
            )
        }.min()
    }
}

/// A local time of day, `"HH:MM"` from 00:00 to 23:59.
struct ClockTime: Sendable, Hashable, Comparable {
    var hour: Int
    var minute: Int

    init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly two digits, a colon, and two digits.
    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[0], bytes[1], bytes[3], bytes[4]]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let values = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hour = values[0] * 10 + values[1]
        let minute = values[2] * 10 + values[3]
        guard hour < 24, minute < 60 else { return nil }
        self.init(hour: hour, minute: minute)
    }

    var text: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    static func < (lhs: ClockTime, rhs: ClockTime) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }
}
