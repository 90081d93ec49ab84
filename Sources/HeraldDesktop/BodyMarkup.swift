/// The Desktop Notifications specification's body markup: a small XML subset, so a
/// server that advertises `body-markup` reads `<`, `>` and `&` in plain text as markup.
package enum BodyMarkup {
    /// `text` as plain text inside markup: `&`, `<`, `>`, `"` and `'` as entities.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The text of a body in the specification's markup: tags (`<b>`, `<a href=…>`,
    /// `<img …/>`) dropped, entities decoded; text that is not well-formed markup is kept
    /// as it reads.
    package static func plainText(_ markup: String) -> String {
        guard markup.contains(where: { $0 == "<" || $0 == "&" }) else { return markup }
        var text = ""
        text.reserveCapacity(markup.utf8.count)
        var index = markup.startIndex
        while index < markup.endIndex {
            let character = markup[index]
            if character == "<", let close = markup[index...].firstIndex(of: ">"),
                let next = markup.index(index, offsetBy: 1, limitedBy: markup.endIndex), next < markup.endIndex,
                markup[next].isLetter || markup[next] == "/"
            {
                index = markup.index(after: close)
                continue
            }
            if character == "&", let semicolon = markup[index...].prefix(12).firstIndex(of: ";"),
                let decoded = entity(markup[markup.index(after: index)..<semicolon])
            {
                text.append(decoded)
                index = markup.index(after: semicolon)
                continue
            }
            text.append(character)
            index = markup.index(after: index)
        }
        return text
    }

    private static func entity(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}
