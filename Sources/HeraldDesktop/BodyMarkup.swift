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
}
