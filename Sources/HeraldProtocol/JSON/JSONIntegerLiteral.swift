/// The exact value of a JSON number literal, as far as an integer needs it.
///
/// `1.0`, `1e2` and `-0.0` are integers; `1.5` and `1e-1` are not. The value is computed
/// on the decimal digits, never through `Double`, so `9007199254740993` stays exact.
enum JSONIntegerLiteral: Equatable {
    /// The integer's decimal text, with a leading `-` when negative, ready for `T(_:)`.
    case integral(String)
    /// The value has a fractional part.
    case fractional
    /// The value has more than 40 digits: no Swift integer holds it.
    case tooLarge

    private static let maximumDigits = 40

    init(_ literal: String) {
        var negative = false
        var mantissa: [UInt8] = []
        var fractionDigitCount = 0
        var exponent = 0
        var exponentNegative = false
        var part = 0  // 0: integer digits, 1: fraction digits, 2: exponent
        for byte in literal.utf8 {
            switch byte {
            case UInt8(ascii: "-") where part == 0:
                negative = true
            case UInt8(ascii: "-"):
                exponentNegative = true
            case UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."):
                part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                part = 2
            default:
                let digit = Int(byte &- UInt8(ascii: "0"))
                if part == 2 {
                    exponent = min(exponent * 10 + digit, 1_000_000)
                } else {
                    mantissa.append(byte)
                    if part == 1 {
                        fractionDigitCount += 1
                    }
                }
            }
        }
        var scale = (exponentNegative ? -exponent : exponent) - fractionDigitCount
        let firstNonZero = mantissa.firstIndex { $0 != UInt8(ascii: "0") }
        guard let firstNonZero else {
            self = .integral("0")
            return
        }
        var digits = mantissa[firstNonZero...]
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            scale += 1
        }
        if scale < 0 {
            self = .fractional
            return
        }
        if digits.count + scale > Self.maximumDigits {
            self = .tooLarge
            return
        }
        var text = negative ? "-" : ""
        text += String(decoding: digits, as: UTF8.self)
        text += String(repeating: "0", count: scale)
        self = .integral(text)
    }
}
