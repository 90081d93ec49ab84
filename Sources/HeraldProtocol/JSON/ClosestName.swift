/// The known name a misspelt one most likely meant: "did you mean `allowedPeople`?" for
/// `alowedPeople`, `donate` for `donat`.
package enum ClosestName {
    /// The candidate nearest to `name` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours, ignoring case), when it is close: at most one
    /// edit for names up to 5 characters, two up to 11, three beyond. Ties go to the
    /// earlier candidate. Nil when none is close.
    ///
    /// A name ending in `ID` is also read with `Identifier` for it, the abbreviation
    /// clients write most (`conversationID` → `conversationIdentifier`, `threadId` →
    /// `threadIdentifier`), which is too many edits away otherwise.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        // Names longer than this are not typos of Herald's names; this also bounds the cost.
        guard name.utf8.count <= 64 else { return nil }
        let lowered = name.lowercased()
        let typed = Array(lowered.unicodeScalars)
        let expanded = lowered.hasSuffix("id") ? Array((lowered.dropLast(2) + "identifier").unicodeScalars) : nil
        let allowed = typed.count <= 5 ? 1 : typed.count <= 11 ? 2 : 3
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let known = Array(candidate.lowercased().unicodeScalars)
            if let expanded, expanded == known, candidate.count > name.count {
                return candidate
            }
            guard abs(known.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, known)
            if distance <= allowed, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance: Levenshtein's, with a swap of two neighbours
    /// counting one edit (`titel` is one edit from `title`).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, beforePrevious[j - 2] + 1)
                }
                current[j] = distance
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
