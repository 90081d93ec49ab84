import FoundationEssentials
import ArgumentParser
import HeraldCore
import HeraldProtocol

/// A time as a person writes it for `--since` and `--until`: how long ago (`90s`, `15m`,
/// `1h`, `2d`, as `DurationText` reads durations) or an RFC 3339 date-time.
enum PastTime {
    /// The time `text` names at `now`; nil unless it is a duration of 0 or more or an RFC
    /// 3339 date-time.
    static func date(_ text: String, now: Date = Date()) -> Date? {
        if let seconds = DurationText.seconds(text) { return seconds >= 0 ? now.addingTimeInterval(-seconds) : nil }
        return RFC3339.parse(text)
    }

    /// The usage error for `flag` given `text` that ``date(_:now:)`` does not read.
    static func refusal(_ flag: String, _ text: String) -> ValidationError {
        ValidationError("\(flag) takes how long ago (90s, 15m, 1h, 2d) or an RFC 3339 date-time such as 2026-11-27T08:00:00Z, not \(text).")
    }
}
