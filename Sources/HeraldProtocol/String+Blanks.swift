/// Trimming as the programs' line-based files and prompts need it, without Foundation's
/// `trimmingCharacters(in:)`: that one is swift-corelibs-foundation's, and calling it links
/// CoreFoundation and ICU into a program (docs/performance.md, "What brings in ICU").
extension StringProtocol {
    /// Without the spaces and tabs around it, as `trimmingCharacters(in: .whitespaces)`.
    package func trimmingBlanks() -> String {
        trimming { $0.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator } }
    }

    /// Without the spaces, tabs and line breaks around it, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    package func trimmingWhitespace() -> String {
        trimming(\.isWhitespace)
    }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
