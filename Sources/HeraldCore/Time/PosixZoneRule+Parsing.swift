extension PosixZoneRule {
    /// Reads a POSIX `TZ` string as TZif footers write it (RFC 8536 §3.3): `std offset
    /// [dst [offset] [,start[/time],end[/time]]]`, names alphabetic or in angle brackets;
    /// nil for anything else.
    init?(parsing text: String) {
        var reader = Reader(bytes: Array(text.utf8))
        guard reader.skipName(), let standardWest = reader.offset(maxHours: 24) else { return nil }
        let standardOffset = -standardWest
        if reader.atEnd {
            self.init(standardOffset: standardOffset, daylightSaving: nil)
            return
        }
        guard reader.skipName() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !reader.atEnd, reader.peek != UInt8(ascii: ",") {
            guard let west = reader.offset(maxHours: 24) else { return nil }
            daylightOffset = -west
        }
        let start: Change
        let end: Change
        if reader.atEnd {
            // POSIX leaves the default to the system; glibc and tzcode take the US rules.
            start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), seconds: 7200)
            end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), seconds: 7200)
        } else {
            guard reader.skip(","), let first = reader.change(), reader.skip(","), let second = reader.change(), reader.atEnd else { return nil }
            start = first
            end = second
        }
        self.init(standardOffset: standardOffset, daylightSaving: DaylightSaving(offset: daylightOffset, start: start, end: end))
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` of letters, digits and signs.
        mutating func skipName() -> Bool {
            let begin = index
            if skip("<") {
                while let byte = peek, byte != UInt8(ascii: ">") {
                    guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                return skip(">") && index - begin >= 5
            }
            while let byte = peek, Self.isLetter(byte) { index += 1 }
            return index - begin >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds; hours up to `maxHours`.
        mutating func offset(maxHours: Int) -> Int32? {
            var sign: Int32 = 1
            if skip("-") { sign = -1 } else { _ = skip("+") }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3600
            if skip(":") {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if skip(":") {
                    guard let extra = number(maxDigits: 2), extra < 60 else { return nil }
                    seconds += extra
                }
            }
            return sign * Int32(seconds)
        }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (02:00 when absent).
        mutating func change() -> Change? {
            let day: Day
            if skip("J") {
                guard let number = number(maxDigits: 3), (1...365).contains(number) else { return nil }
                day = .julian(number)
            } else if skip("M") {
                guard let month = number(maxDigits: 2), (1...12).contains(month), skip("."),
                    let week = number(maxDigits: 1), (1...5).contains(week), skip("."),
                    let weekday = number(maxDigits: 1), weekday <= 6
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let number = number(maxDigits: 3), number <= 365 else { return nil }
                day = .zeroBased(number)
            }
            var seconds: Int32 = 7200
            if skip("/") {
                guard let time = offset(maxHours: 167) else { return nil }
                seconds = time
            }
            return Change(day: day, seconds: seconds)
        }

        private mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while let byte = peek, Self.isDigit(byte), digits < maxDigits {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits == 0 ? nil : value
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
