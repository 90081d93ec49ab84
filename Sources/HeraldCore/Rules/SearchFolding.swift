/// Case, diacritics and width folded away, as the search compares words: "Élan", "ÉLAN",
/// "Ｅｌａｎ" and "elan" are one word, "Straße" is "strasse".
///
/// It folds as Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive,
/// .widthInsensitive], locale: nil)` does, without ICU and its data, which would make each
/// program four times its size (docs/operations.md). The tables come from the Unicode
/// Character Database (scripts/generate-search-folding.py); SearchFoldingTests checks them
/// against Foundation for every code point.
package enum SearchFolding {
    /// `text` folded: each letter by the table, and the marks that follow it dropped after
    /// a Latin, Greek or Cyrillic letter. After any other letter they are kept, but for a
    /// first mark of those blocks after a letter the table leaves as it is, and the letter
    /// and its marks are put in order of their combining class (Foundation's order).
    package static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let letter = next {
            let clusterStart = folded.endIndex
            var last = letter.value
            var changed = false
            forEachFolded(letter) { scalar in
                folded.append(scalar)
                last = scalar.value
                changed = changed || scalar != letter
            }
            let keepsMarks = last >= latinGreekCyrillicEnd
            var keptMark = false
            var firstMark = true
            next = scalars.next()
            while let mark = next, isJoiningMark(mark.value) {
                if keepsMarks && (changed || !firstMark || mark.value >= latinGreekCyrillicEnd) {
                    forEachPart(ofKeptMark: mark) { folded.append($0) }
                    keptMark = true
                }
                firstMark = false
                next = scalars.next()
            }
            if keptMark { sortByCombiningClass(&folded, from: clusterStart) }
        }
        return String(folded)
    }

    /// Where the Latin, Greek and Cyrillic blocks end: Foundation drops every mark after
    /// a letter before it, and only those before it after any other letter.
    private static let latinGreekCyrillicEnd: UInt32 = 0x0510

    /// Calls `body` with what `scalar` folds to on its own, one to three scalars.
    private static func forEachFolded(_ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
        let value = scalar.value
        if value < 0x80 {
            body(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value) + 0x20) : scalar)
        } else if let index = index(of: value, in: singleFoldedScalars) {
            body(Unicode.Scalar(singleFoldings[index])!)
        } else if let index = index(of: value, in: multipleFoldedScalars) {
            for part in multipleFoldings[index * 3..<index * 3 + 3] where part != 0 {
                body(Unicode.Scalar(part)!)
            }
        } else {
            body(scalar)
        }
    }

    /// Calls `body` with a kept mark's canonical decomposition, or the mark itself.
    private static func forEachPart(ofKeptMark mark: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
        var row = 0
        while row < keptMarkDecompositions.count {
            if keptMarkDecompositions[row] == mark.value {
                for part in keptMarkDecompositions[row + 1..<row + 5] where part != 0 {
                    body(Unicode.Scalar(part)!)
                }
                return
            }
            row += 5
        }
        body(mark)
    }

    /// Whether `value` is a mark that joins the scalar before it.
    private static func isJoiningMark(_ value: UInt32) -> Bool {
        // The first pair whose last scalar is at or past `value`.
        var low = 0
        var high = joiningMarkRanges.count / 2
        while low < high {
            let middle = (low + high) / 2
            if joiningMarkRanges[middle * 2 + 1] < value { low = middle + 1 } else { high = middle }
        }
        return low < joiningMarkRanges.count / 2 && joiningMarkRanges[low * 2] <= value
    }

    /// The position of `value` in the sorted `table`, if it is there.
    private static func index(of value: UInt32, in table: [UInt32]) -> Int? {
        var low = 0
        var high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < table.count && table[low] == value ? low : nil
    }

    /// Sorts the scalars from `start` on by their canonical combining class, keeping the
    /// order of those of one class, as Foundation orders a letter and its marks.
    private static func sortByCombiningClass(_ scalars: inout String.UnicodeScalarView, from start: String.UnicodeScalarView.Index) {
        var cluster = Array(scalars[start...])
        var index = 1
        while index < cluster.count {
            let scalar = cluster[index]
            let order = scalar.properties.canonicalCombiningClass.rawValue
            var position = index
            while position > 0, cluster[position - 1].properties.canonicalCombiningClass.rawValue > order {
                cluster[position] = cluster[position - 1]
                position -= 1
            }
            cluster[position] = scalar
            index += 1
        }
        scalars.replaceSubrange(start..., with: cluster)
    }
}
