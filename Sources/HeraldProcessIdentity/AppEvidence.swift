import HeraldCore

/// What the system writes about a process's app, read as text: the pure half of
/// ``PeerIdentity``, each rule as xdg-desktop-portal applies it.
package enum AppEvidence {
    /// The app of a `.flatpak-info`: `name` in `[Application]` (or `[Runtime]`, for a
    /// runtime's sandbox), when it is a valid app id.
    package static func flatpakApp(fromInfo text: String) -> String? {
        var group = ""
        var names: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { return nil }
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace
            if key == "name", group == "Application" || group == "Runtime", names[group] == nil {
                names[group] = String(line[line.index(after: equals)...].trimmingWhitespace)
            }
        }
        guard let name = names["Runtime"] ?? names["Application"], isReverseDNS(name) else { return nil }
        return name
    }

    /// A Snap's app from its AppArmor label, `snap.<name>.<app> (enforce)`: `snap.<name>`.
    /// Only an enforced profile counts; a profile in complain mode confines nothing.
    package static func snapApp(fromAppArmorLabel text: String) -> String? {
        let label = text[...].trimmingWhitespace
        guard label.hasSuffix(" (enforce)") else { return nil }
        let profile = label.dropLast(" (enforce)".count)
        let parts = profile.split(separator: ".", omittingEmptySubsequences: false)
        // snap.<name>.<app>, or snap.<name>.hook.<hook>
        guard parts.count >= 3, parts[0] == "snap", isSnapName(parts[1]) else { return nil }
        return "snap.\(parts[1])"
    }

    /// The app of the systemd unit a process runs in, from `/proc/PID/cgroup`: the
    /// innermost unit on the unified (or `name=systemd`) hierarchy, when it is named as the
    /// Desktop Environments document says an app's unit is
    /// (`app[-<launcher>]-<app-id>[@<random>].service`, `app[-<launcher>]-<app-id>-<random>.scope`),
    /// or as snapd names a Snap's (`snap.<name>.<app>[-<uuid>].scope`, `snap.<name>.<app>.service`).
    package static func unitApp(fromCgroup text: String) -> String? {
        var path: Substring?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("0::") {
                path = line.dropFirst(3)
                break
            }
            if let range = line.firstRange(of: ":name=systemd:") { path = line[range.upperBound...] }
        }
        guard let path else { return nil }
        guard let unit = path.split(separator: "/").last(where: { $0.hasSuffix(".scope") || $0.hasSuffix(".service") }) else {
            return nil
        }
        return unitApp(fromUnit: String(unit))
    }

    /// The app a unit's name gives, or nil when it is not an app's unit.
    package static func unitApp(fromUnit unit: String) -> String? {
        let isScope = unit.hasSuffix(".scope")
        guard isScope || unit.hasSuffix(".service") else { return nil }
        var name = Substring(unit.dropLast(isScope ? 6 : 8))
        if name.hasPrefix("snap.") {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3, isSnapName(parts[1]) else { return nil }
            return "snap.\(parts[1])"
        }
        guard name.hasPrefix("app-") else { return nil }
        name = name.dropFirst(4)
        if !isScope, let at = name.firstIndex(of: "@") { name = name[..<at] }
        // systemd escapes a "-" inside a part as \x2d, so "-" only separates the parts.
        var parts = name.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if isScope {
            guard parts.count >= 2, !parts.removeLast().isEmpty else { return nil }
        }
        guard parts.count == 1 || parts.count == 2 else { return nil }
        if parts.count == 2 {
            // The launcher names no app: no dots, as in "gnome", "kde", "flatpak".
            guard !parts[0].isEmpty, !parts[0].contains("." as Character) else { return nil }
        }
        guard let id = unescapeUnitName(parts[parts.count - 1]), isAppID(id) else { return nil }
        return id
    }

    /// Whether a process's root and its `/.flatpak-info` are on file systems that answer
    /// from the kernel, from its `/proc/PID/mountinfo` (mount points as the process sees
    /// them; a later mount hides an earlier one at the same point). A FUSE file system (or
    /// an overlay, whose lower layer may be one) is served by a process that may never
    /// answer, and would stall the event loop that opened the file.
    package static func rootIsSafeToRead(mountinfo text: String) -> Bool {
        var types: [Substring: Substring] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ")
            // id parent major:minor root mount-point options [optional…] - type source options
            guard fields.count >= 10, let separator = fields.firstIndex(of: "-"), separator + 1 < fields.count else { continue }
            let point = fields[4]
            if point == "/" || point == "/.flatpak-info" { types[point] = fields[separator + 1] }
        }
        guard let rootType = types["/"] else { return false }
        return [rootType, types["/.flatpak-info"]].allSatisfy { type in
            guard let type else { return true }
            return !type.hasPrefix("fuse") && type != "overlay"
        }
    }

    /// A valid app id of a unit: letters, digits, `.`, `_` and `-`, 1–255 of them.
    static func isAppID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255
            && id.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            && !id.hasPrefix(".") && !id.hasSuffix(".")
    }

    /// Flatpak's rule for an app id: at least three dot-separated elements, none empty,
    /// none starting with a digit, of letters, digits, `_` and (except the last) `-`.
    static func isReverseDNS(_ id: String) -> Bool {
        guard id.utf8.count <= 255 else { return false }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 3 else { return false }
        for (index, element) in elements.enumerated() {
            guard let first = element.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            let allowDash = index < elements.count - 1
            guard element.utf8.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") || (allowDash && $0 == UInt8(ascii: "-")) })
            else { return false }
        }
        return true
    }

    /// snapd's rule for a snap's name: lowercase letters, digits and `-`, at most 40.
    static func isSnapName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// A unit name's part with systemd's `\xNN` escapes undone; nil for a broken escape.
    static func unescapeUnitName(_ part: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(part.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard iterator.popFirst() == UInt8(ascii: "x"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            iterator = iterator.dropFirst(2)
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
