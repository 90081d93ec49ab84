import Foundation
import HeraldTesting
import Testing

@testable import HeraldProtocol

/// heraldctl's member order against the one it replaces: Foundation's `compare` with the
/// options `JSONSerialization`'s `sortedKeys` used.
@Suite struct JSONKeyOrderTests {
    private static func foundationPrecedes(_ left: String, _ right: String) -> Bool {
        left.compare(right, options: [.numeric, .caseInsensitive, .forcedOrdering, .widthInsensitive]) == .orderedAscending
    }

    @Test("the protocol's member names sort as Foundation sorted them")
    func memberNames() {
        let names = [
            "allowedApps", "allowMentions", "app", "App", "a9", "a10", "a09", "a010", "uid", "_private", "Zulu", "zulu",
            "notifyRecipientAnyway", "notifications", "nextCursor", "x-notifications", "x_notifications", "1", "01", "10",
            "", "a", "ab", "a b", "a-b", "a.b", "~", "Ω", "ω", "ｅ", "Ｅ", "ß", "ss", "ſ", "ς", "σ", "ﬀ", "ff",
        ]
        for left in names {
            for right in names {
                #expect(JSONKeyOrder.precedes(left, right) == Self.foundationPrecedes(left, right), "\(left) vs \(right)")
            }
        }
    }

    @Test("seeded names of letters, digits and full-width forms sort as Foundation sorted them")
    func seededNames() {
        var random = SeededRandom(for: "JSONKeyOrderTests.seededNames")
        let pieces = [
            "a", "b", "A", "B", "z", "Z", "_", "-", ".", " ", "~", "0", "1", "2", "9", "10", "007", "00", "ｂ", "Ｂ", "ß", "ς",
            "σ", "ﬀ", "１", "Ω", "ω", "ж", "Ж", "中", "😀", "０", "１０",
        ]
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let left = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let right = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            if JSONKeyOrder.precedes(left, right) != Self.foundationPrecedes(left, right) {
                mismatches.append("\(left) vs \(right)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, such as \(mismatches.prefix(20))")
    }
}
