import Glibc

/// Formats journal entries as logfmt lines for the console target.
///
/// Each field becomes `name=value` with the name lowercased, in the entry's order:
/// `priority=6 message="donate ok" herald_method=donate`. A value is quoted when it is
/// empty or holds a space, `"`, `=` or a control character; inside quotes, `\` and `"` are
/// escaped, and newlines, tabs and other control characters are written as escapes, so
/// that every entry stays on one line. The console target puts `time=` first, as journald
/// stamps what it receives.
enum Logfmt {
    /// The entry as one line, ending in a newline; `time`, when given, leads it.
    static func line(_ entry: JournalEntry, time: String? = nil) -> String {
        var line = ""
        line.reserveCapacity(entry.storage.count + 48)
        if let time {
            line.append("time=")
            line.append(time)
        }
        for (index, field) in entry.fields.enumerated() {
            if index > 0 || time != nil {
                line.append(" ")
            }
            line.append(field.name.lowercased())
            line.append("=")
            appendValue(field.value, to: &line)
        }
        line.append("\n")
        return line
    }

    static func appendValue(_ value: String, to line: inout String) {
        guard needsQuotes(value) else {
            line.append(value)
            return
        }
        line.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": line.append("\\\"")
            case "\\": line.append("\\\\")
            case "\n": line.append("\\n")
            case "\r": line.append("\\r")
            case "\t": line.append("\\t")
            case _ where isControl(scalar):
                line.append("\\u")
                let hex = String(scalar.value, radix: 16)
                line.append(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
            default: line.unicodeScalars.append(scalar)
            }
        }
        line.append("\"")
    }

    static func needsQuotes(_ value: String) -> Bool {
        value.isEmpty
            || value.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || isControl($0) }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7f
    }
}

extension Logfmt {
    /// The current time in UTC, to the millisecond: `2026-11-23T09:26:24.289Z`.
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(spec.tv_nsec / 1_000_000)
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
