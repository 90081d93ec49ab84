import Foundation
import HeraldProtocol

/// An app's `.desktop` file, in the words a bubble needs: its name and its icon
/// (the Desktop Entry Specification's `[Desktop Entry]` group).
///
/// Herald's app identifiers are reverse-DNS names, as Flatpak's and GNOME's desktop file
/// IDs are, so `org.example.chat` is described by `applications/org.example.chat.desktop`.
package struct DesktopEntry: Sendable, Hashable {
    /// The desktop file ID without `.desktop`: the `desktop-entry` hint.
    package var id: String
    /// `Name`, in the person's language where the file has it: the bubble's `app_name`.
    package var name: String
    /// `Icon`: a theme icon name or an absolute path, the bubble's `app_icon`.
    package var icon: String?

    package init(id: String, name: String, icon: String? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
    }

    /// The entry a file's `contents` describe, nil when it describes nothing to show:
    /// no `Name`, or `Hidden=true` (the specification's "deleted").
    ///
    /// `languages` are the `Name[…]` keys to prefer, best first (``languages(environment:)``).
    package init?(id: String, contents: String, languages: [String] = []) {
        var inEntry = false
        var values: [String: String] = [:]
        for rawLine in contents.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inEntry = line == "[Desktop Entry]"
                continue
            }
            guard inEntry, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks()
            if values[key] == nil { values[key] = Self.unescape(line[line.index(after: equals)...].trimmingBlanks()) }
        }
        guard values["Hidden"] != "true" else { return nil }
        let name = languages.lazy.compactMap { values["Name[\($0)]"] }.first ?? values["Name"]
        guard let name, !name.isEmpty else { return nil }
        let icon = values["Icon"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(id: id, name: name, icon: icon)
    }

    /// Whether `app` can name a desktop file: one file name, no folder, nothing hidden.
    package static func isFileName(_ app: String) -> Bool {
        !app.isEmpty && !app.hasPrefix(".") && !app.contains("/" as Character) && !app.contains("\0" as Character)
    }

    /// Where `app`'s desktop file is looked for, first match wins: `$XDG_DATA_HOME/applications`
    /// (default `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`) `/applications`, as the XDG Base Directory Specification says.
    package static func candidatePaths(for app: String, environment: [String: String]) -> [String] {
        guard isFileName(app) else { return [] }
        var folders: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            folders.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(home + "/.local/share")
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += dataDirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.map { "\($0)/applications/\(app).desktop" }
    }

    /// The `Name[…]` keys for the person's language, best first, from `LC_ALL`, `LC_MESSAGES`
    /// or `LANG`: `de_DE@euro` gives `de_DE@euro`, `de_DE`, `de@euro`, `de`.
    package static func languages(environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var rest = Substring(locale)
        if let dot = rest.firstIndex(of: ".") {
            let modifier = rest.firstIndex(of: "@").map { rest[$0...] } ?? ""
            rest = rest[..<dot] + modifier
        }
        let modifier = rest.firstIndex(of: "@").map { String(rest[rest.index(after: $0)...]) }
        let base = rest.split(separator: "@").first.map(String.init) ?? ""
        let parts = base.split(separator: "_", maxSplits: 1).map(String.init)
        guard let language = parts.first, language != "C", language != "POSIX" else { return [] }
        let country = parts.count > 1 ? parts[1] : nil
        var keys: [String] = []
        if let country, let modifier { keys.append("\(language)_\(country)@\(modifier)") }
        if let country { keys.append("\(language)_\(country)") }
        if let modifier { keys.append("\(language)@\(modifier)") }
        keys.append(language)
        return keys
    }

    /// A value's escapes: `\s`, `\n`, `\t`, `\r`, `\\`.
    private static func unescape(_ value: String) -> String {
        guard value.contains("\\" as Character) else { return value }
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "s": result.append(" ")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
