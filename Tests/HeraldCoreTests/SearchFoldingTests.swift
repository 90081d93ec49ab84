import Foundation
import HeraldTesting
import Testing

@testable import HeraldCore

/// Issue 46: the search folds as Foundation's `folding` did, from tables made from the
/// Unicode Character Database instead of ICU. Foundation is the oracle here, and only here.
@Suite struct SearchFoldingTests {
    private static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]

    private static func foundation(_ text: String) -> String {
        text.folding(options: options, locale: nil)
    }

    private static func hex(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    /// Every code point, alone, after a Latin letter (whose marks are dropped) and after a
    /// Devanagari one (whose marks beyond the Latin, Greek and Cyrillic blocks are kept).
    @Test(arguments: ["", "a", "\u{915}"])
    func everyCodePointFoldsAsFoundationFoldsIt(after letter: String) {
        var differences: [String] = []
        var compared = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var text = letter
            text.unicodeScalars.append(scalar)
            let expected = Self.foundation(text)
            let folded = SearchFolding.fold(text)
            compared += 1
            if folded.unicodeScalars.elementsEqual(expected.unicodeScalars) { continue }
            differences.append("\(Self.hex(text)): \(Self.hex(folded)), Foundation \(Self.hex(expected))")
        }
        #expect(compared == 0x110000 - 0x800, "every scalar but the surrogates")
        #expect(differences.isEmpty, "\(differences.count) differ, first: \(differences.prefix(20).joined(separator: "; "))")
    }

    /// Words of letters and marks in any order: clusters, marks kept and put in canonical
    /// order, letters that fold to several.
    @Test func mixedWordsFoldAsFoundationFoldsThem() {
        var generator = SeededRandom(for: "mixedWordsFoldAsFoundationFoldsThem")
        let seed = generator.seed
        let pieces: [Unicode.Scalar] = [
            "a", "E", "ß", "İ", "ﬃ", "Ω", "ǅ", "\u{301}", "\u{308}", "\u{345}", "\u{327}", "\u{20DD}", "\u{FE0F}",
            "\u{915}", "\u{93C}", "\u{94D}", "\u{93F}", "\u{5D1}", "\u{5BC}", "\u{5B8}", "\u{628}", "\u{64E}", "\u{651}",
            "\u{F40}", "\u{F73}", "\u{F71}", "\u{F80}", "\u{30AB}", "\u{3099}", "\u{FF76}", "\u{FF9E}", "\u{FF21}",
            "\u{AC00}", "\u{1100}", "\u{1161}", "\u{13A0}", "\u{AB70}", "\u{1F3FB}", "\u{200D}", "\u{1F44D}", "Ǆ", "ΐ",
        ]
        var differences: [String] = []
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                text.unicodeScalars.append(pieces.randomElement(using: &generator)!)
            }
            let expected = Self.foundation(text)
            let folded = SearchFolding.fold(text)
            if !folded.unicodeScalars.elementsEqual(expected.unicodeScalars) {
                differences.append("\(Self.hex(text)): \(Self.hex(folded)), Foundation \(Self.hex(expected))")
            }
        }
        #expect(differences.isEmpty, "seed \(seed): \(differences.count) differ, first: \(differences.prefix(10).joined(separator: "; "))")
    }

    @Test func wordsPeopleTypeFoldToTheirPlainForm() {
        #expect(SearchFolding.fold("Élan") == "elan")
        #expect(SearchFolding.fold("STRAẞE") == "strasse")
        #expect(SearchFolding.fold("Ｃａｆé") == "cafe")
        #expect(SearchFolding.fold("Cafe\u{301}") == "cafe")
        #expect(SearchFolding.fold("ﬁle") == "file")
        #expect(SearchFolding.fold("Ωμέγα") == "ωμεγα")
        #expect(SearchFolding.fold("日本語") == "日本語")
    }
}
