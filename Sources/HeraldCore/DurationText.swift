/// A duration as an administrator writes it on the command line: seconds, or a number
/// with a unit — `90`, `90s`, `15m`, `12h`, `30d`, `1.5h`.
package enum DurationText {
    private static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]

    /// The duration in seconds; nil unless `text` is a finite number with at most one unit.
    package static func seconds(_ text: String) -> Double? {
        var number = Substring(text)
        var unit = 1.0
        if let last = number.last, let scale = units[last] {
            number = number.dropLast()
            unit = scale
        }
        // Double(_:) also reads "nan", "inf" and hexadecimal: only plain decimals are durations.
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
            let value = Double(number), (value * unit).isFinite
        else { return nil }
        return value * unit
    }

    /// A number of seconds as an error's reason shows it: an integral value without a
    /// fraction (`0`, `-1`, as the client most likely wrote it, not `0.0`), any other as
    /// Swift writes it (`0.5`).
    package static func number(_ value: Double) -> String {
        guard value.isFinite, value == value.rounded(.towardZero), abs(value) < 1e15 else { return "\(value)" }
        return String(Int64(value))
    }
}
