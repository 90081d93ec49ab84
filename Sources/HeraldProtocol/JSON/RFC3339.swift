import FoundationEssentials

/// RFC 3339 date-times, read and written by hand: no `DateFormatter`, no shared state,
/// safe from any thread.
///
/// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t` and `z` may be lowercase) and
/// checks every field's range, including the month's length in leap years. A leap second
/// (`:60`) is rejected: `Date` cannot hold one. Writes UTC with exactly three fractional
/// digits, `2026-11-22T14:02:00.000Z`, rounding to the nearest millisecond.
package enum RFC3339 {
    package static func parse(_ s: String) -> Date? {
        var s = s
        return s.withUTF8 { parse(utf8: $0) }
    }

    package static func format(_ d: Date) -> String {
        String(unsafeUninitializedCapacity: byteCount) { write(d, into: $0) }
    }

    /// Appends `d` as a JSON string, quotes and all, as ``format(_:)`` writes it: no
    /// `String` in between (`donate` writes one per request).
    package static func writeQuoted(_ d: Date, to text: inout [UInt8]) {
        let start = text.count
        text.append(contentsOf: repeatElement(UInt8(ascii: "\""), count: byteCount + 2))
        text.withUnsafeMutableBufferPointer { buffer in
            _ = write(d, into: UnsafeMutableBufferPointer(rebasing: buffer[(start + 1)...]))
        }
    }

    /// `d` as the wire writes it: whole milliseconds since 1970, rounded to the nearest (0
    /// for a time no calendar holds). A time a client gives back compares in these, so
    /// that the `receivedAt` it was told names the notification it came from.
    package static func milliseconds(_ d: Date) -> Int64 {
        let interval = d.timeIntervalSince1970
        // Beyond ±2^62 ms a Date is no calendar date; write the epoch rather than trap.
        let scaled = interval.isFinite ? (interval * 1000).rounded() : 0
        return abs(scaled) < 0x1p62 ? Int64(scaled) : 0
    }

    /// The size of every date written: `2026-11-22T14:02:00.000Z`.
    private static let byteCount = 24

    /// Writes `d` into the first ``byteCount`` bytes of `bytes`; returns how many it wrote.
    private static func write(_ d: Date, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let totalMilliseconds = milliseconds(d)
        let milliseconds = Int(totalMilliseconds.modulo(1000))
        let totalSeconds = (totalMilliseconds - Int64(milliseconds)) / 1000
        let secondOfDay = Int(totalSeconds.modulo(86_400))
        let days = (totalSeconds - Int64(secondOfDay)) / 86_400
        let (year, month, day) = civilDate(fromDays: days)

        var index = 0
        appendDigits(Int(year), count: 4, to: bytes, at: &index)
        append(UInt8(ascii: "-"), to: bytes, at: &index)
        appendDigits(month, count: 2, to: bytes, at: &index)
        append(UInt8(ascii: "-"), to: bytes, at: &index)
        appendDigits(day, count: 2, to: bytes, at: &index)
        append(UInt8(ascii: "T"), to: bytes, at: &index)
        appendDigits(secondOfDay / 3600, count: 2, to: bytes, at: &index)
        append(UInt8(ascii: ":"), to: bytes, at: &index)
        appendDigits(secondOfDay / 60 % 60, count: 2, to: bytes, at: &index)
        append(UInt8(ascii: ":"), to: bytes, at: &index)
        appendDigits(secondOfDay % 60, count: 2, to: bytes, at: &index)
        append(UInt8(ascii: "."), to: bytes, at: &index)
        appendDigits(milliseconds, count: 3, to: bytes, at: &index)
        append(UInt8(ascii: "Z"), to: bytes, at: &index)
        return index
    }

    private static func parse(utf8 text: UnsafeBufferPointer<UInt8>) -> Date? {
        // The fixed part: YYYY-MM-DDTHH:MM:SS is 19 bytes, and a zone follows.
        guard text.count >= 20,
            let year = number(text, 0, 4), text[4] == UInt8(ascii: "-"),
            let month = number(text, 5, 2), text[7] == UInt8(ascii: "-"),
            let day = number(text, 8, 2), text[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(text, 11, 2), text[13] == UInt8(ascii: ":"),
            let minute = number(text, 14, 2), text[16] == UInt8(ascii: ":"),
            let second = number(text, 17, 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var index = 19
        var fraction = 0.0
        if text[index] == UInt8(ascii: ".") {
            index += 1
            // Up to nine digits count (nanoseconds); further digits are checked and ignored.
            var nanoseconds = 0
            var scale = 100_000_000
            let digitsStart = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                nanoseconds += Int(text[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
            fraction = Double(nanoseconds) / 1e9
        }

        guard index < text.count else { return nil }
        var offsetSeconds = 0
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == text.count,
                let offsetHour = number(text, index + 1, 2), text[index + 3] == UInt8(ascii: ":"),
                let offsetMinute = number(text, index + 4, 2),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = (offsetHour * 60 + offsetMinute) * 60
            if text[index] == UInt8(ascii: "-") {
                offsetSeconds = -offsetSeconds
            }
            index += 6
        default:
            return nil
        }
        guard index == text.count else { return nil }

        let days = daysFromCivil(year: Int64(year), month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The value of `count` ASCII digits at `start`, or nil if any is not a digit.
    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`.
    package static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func append(_ byte: UInt8, to bytes: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
        bytes[index] = byte
        index += 1
    }

    /// Writes the last `count` decimal digits of `value`'s magnitude, zero-padded.
    private static func appendDigits(
        _ value: Int,
        count: Int,
        to bytes: UnsafeMutableBufferPointer<UInt8>,
        at index: inout Int
    ) {
        var remaining = abs(value)
        for offset in stride(from: count - 1, through: 0, by: -1) {
            bytes[index + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        index += count
    }
}

extension Int64 {
    /// The remainder that is never negative, for splitting times before 1970.
    fileprivate func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
