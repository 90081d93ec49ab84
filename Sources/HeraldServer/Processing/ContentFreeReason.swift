/// An error's reason as the journal may keep it: every JSON string literal in it — the
/// one place a reason quotes what a client sent (`got "c"`, `no method named "x"`) — is
/// replaced by `"…"`, and the whole is cut at `maxBytes`. Herald's own words, the
/// pointers in backquotes and the identifiers the journal already carries stay.
package enum ContentFreeReason {
    package static let maxBytes = 512

    package static func of(_ reason: String) -> String {
        var redacted: [UInt8] = []
        redacted.reserveCapacity(min(reason.utf8.count, maxBytes))
        var inString = false
        var escaped = false
        for byte in reason.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    redacted.append(contentsOf: "…\"".utf8)
                }
                continue
            }
            redacted.append(byte)
            if byte == UInt8(ascii: "\"") { inString = true }
        }
        // A quote left open (a reason cut short): close what was redacted.
        if inString { redacted.append(contentsOf: "…\"".utf8) }
        guard redacted.count > maxBytes else { return String(decoding: redacted, as: UTF8.self) }
        // Cut on a character boundary: drop continuation bytes at the cut.
        var end = maxBytes
        while end > 0, redacted[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: redacted[..<end], as: UTF8.self) + "…"
    }
}
