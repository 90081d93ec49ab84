/// The order heraldctl writes an object's members in: the order Foundation's
/// `JSONSerialization` gave them with `sortedKeys`, which scripts may have come to expect,
/// without swift-corelibs-foundation (and so ICU) in the program.
///
/// That is `compare(_:options: [.numeric, .caseInsensitive, .forcedOrdering,
/// .widthInsensitive])`: where both names have an ASCII digit, the runs of digits from there
/// count by their value (`a9` before `a10`); letters count by their case-folded form
/// (`allowedApps` before `allowMentions`, `_` before `A`, `ß` as `ss`), a full-width form as
/// its ASCII one. Of names equal by those rules, the first place they differ decides: the
/// run with fewer leading zeros first, else the smaller code point (`A` before `a`). Left
/// out: Foundation compares a letter with marks by its decomposition (`é` beside `e`), this
/// order by its code point (`é` after `z`). `swift test --filter JSONKeyOrderTests` holds it
/// to Foundation's.
package enum JSONKeyOrder {
    /// Whether `left` comes before `right`.
    package static func precedes(_ left: String, _ right: String) -> Bool {
        let a = units(left)
        let b = units(right)
        var i = 0
        var j = 0
        // The first difference the folding hid: true when `left` comes first by it.
        var tieBreak: Bool?
        while i < a.count, j < b.count {
            if a[i].isDigit, b[j].isDigit {
                let leftRun = digitRun(a, from: &i)
                let rightRun = digitRun(b, from: &j)
                // By value: without leading zeros, the longer run is the larger number.
                if leftRun.digits.count != rightRun.digits.count { return leftRun.digits.count < rightRun.digits.count }
                if leftRun.digits != rightRun.digits { return leftRun.digits.lexicographicallyPrecedes(rightRun.digits) }
                if tieBreak == nil, leftRun.zeros != rightRun.zeros { tieBreak = leftRun.zeros < rightRun.zeros }
                continue
            }
            if a[i].folded != b[j].folded { return a[i].folded < b[j].folded }
            if tieBreak == nil, a[i].original != b[j].original { tieBreak = a[i].original < b[j].original }
            i += 1
            j += 1
        }
        if i < a.count || j < b.count { return j < b.count }
        return tieBreak ?? false
    }

    /// One scalar of a name's folded form, and the scalar of the name it came from.
    private struct Unit {
        var folded: UInt32
        var original: UInt32
        var isDigit: Bool { folded == original && folded >= 0x30 && folded <= 0x39 }
    }

    /// The run of digits starting at `index` (without its leading zeros, and how many led);
    /// moves `index` past it.
    private static func digitRun(_ units: [Unit], from index: inout Int) -> (digits: [UInt32], zeros: Int) {
        var zeros = 0
        var digits: [UInt32] = []
        while index < units.count, units[index].isDigit {
            if digits.isEmpty, units[index].folded == 0x30 { zeros += 1 } else { digits.append(units[index].folded) }
            index += 1
        }
        return (digits, zeros)
    }

    private static func units(_ text: String) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            for value in folded(scalar) { units.append(Unit(folded: value, original: scalar.value)) }
        }
        return units
    }

    /// `scalar` case-folded, a full-width ASCII form as its ASCII one.
    private static func folded(_ scalar: Unicode.Scalar) -> [UInt32] {
        var value = scalar.value
        // FULLWIDTH EXCLAMATION MARK … FULLWIDTH TILDE, and IDEOGRAPHIC SPACE.
        if (0xFF01...0xFF5E).contains(value) {
            value -= 0xFF01 - 0x21
        } else if value == 0x3000 {
            value = 0x20
        }
        if value < 0x80 { return [value >= 0x41 && value <= 0x5A ? value + 0x20 : value] }
        let small = scalar.properties.lowercaseMapping
        // Folding that the small form leaves alone: ß is ss, ς is σ, ﬀ is ff.
        if scalar.properties.changesWhenCaseFolded, small.unicodeScalars.elementsEqual([scalar]) {
            return scalar.properties.uppercaseMapping.unicodeScalars.flatMap { $0.properties.lowercaseMapping.unicodeScalars.map(\.value) }
        }
        return small.unicodeScalars.map(\.value)
    }
}
