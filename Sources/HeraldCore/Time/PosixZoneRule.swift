import HeraldProtocol

/// The offsets of a zone after its last listed transition, as a POSIX `TZ` string gives
/// them (the footer of a TZif file, RFC 8536 §3.3): a standard offset and, for a zone that
/// keeps daylight-saving time, that offset and the yearly days and local times it starts
/// and ends. `CET-1CEST,M3.5.0,M10.5.0/3` is Berlin's.
struct PosixZoneRule: Sendable, Hashable {
    /// Seconds east of UTC (the string's offsets count west, so `CET-1` is +3600).
    var standardOffset: Int32
    var daylightSaving: DaylightSaving?

    struct DaylightSaving: Sendable, Hashable {
        var offset: Int32
        /// When daylight-saving time starts, in standard local time.
        var start: Change
        /// When it ends, in daylight-saving local time.
        var end: Change
    }

    /// A day of the year and a local time on it, which may lie outside 0…24 hours
    /// (RFC 8536 §3.3.1: −167…167).
    struct Change: Sendable, Hashable {
        var day: Day
        var seconds: Int32
    }

    enum Day: Sendable, Hashable {
        /// `Jn`: 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (1…5, 5 the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// The offset at `instant` (seconds since 1970), in seconds east of UTC.
    func offset(at instant: Int64) -> Int32 {
        guard let daylightSaving else { return standardOffset }
        let year = RFC3339.civilDate(fromDays: Self.floorDivide(instant + Int64(standardOffset), 86_400)).year
        let start = self.instant(of: daylightSaving.start, in: year, offset: standardOffset)
        let end = self.instant(of: daylightSaving.end, in: year, offset: daylightSaving.offset)
        let inDaylightSaving = start < end ? (start <= instant && instant < end) : !(end <= instant && instant < start)
        return inDaylightSaving ? daylightSaving.offset : standardOffset
    }

    /// The first instant after `instant` at which the offset changes; nil for a zone
    /// without daylight-saving time, or in it all year.
    func nextChange(after instant: Int64) -> Int64? {
        guard let daylightSaving else { return nil }
        let year = RFC3339.civilDate(fromDays: Self.floorDivide(instant + Int64(standardOffset), 86_400)).year
        var candidates: [Int64] = []
        for candidateYear in (year - 1)...(year + 2) {
            candidates.append(self.instant(of: daylightSaving.start, in: candidateYear, offset: standardOffset))
            candidates.append(self.instant(of: daylightSaving.end, in: candidateYear, offset: daylightSaving.offset))
        }
        return candidates.filter { $0 > instant && offset(at: $0) != offset(at: $0 - 1) }.min()
    }

    /// The instant `change` happens in `year`, read in local time at `offset`.
    private func instant(of change: Change, in year: Int64, offset: Int32) -> Int64 {
        let day: Int64
        switch change.day {
        case .julian(let number):
            let leapDay: Int64 = Self.isLeap(year) && number >= 60 ? 1 : 0
            day = RFC3339.daysFromCivil(year: year, month: 1, day: 1) + Int64(number) - 1 + leapDay
        case .zeroBased(let number):
            day = RFC3339.daysFromCivil(year: year, month: 1, day: 1) + Int64(number)
        case .monthWeekDay(let month, let week, let weekday):
            let first = RFC3339.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = Int(((first + 4) % 7 + 7) % 7)  // 1970-01-01 was a Thursday
            var candidate = first + Int64((weekday - firstWeekday + 7) % 7) + Int64(week - 1) * 7
            let nextMonth = month == 12 ? RFC3339.daysFromCivil(year: year + 1, month: 1, day: 1) : RFC3339.daysFromCivil(year: year, month: month + 1, day: 1)
            while candidate >= nextMonth { candidate -= 7 }
            day = candidate
        }
        return day * 86_400 + Int64(change.seconds) - Int64(offset)
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
