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
}
