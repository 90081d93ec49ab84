/// The subtitle of a group notification without a `speakableGroupName`: a summary of
/// the people besides the sender and the user.
///
/// Exactly these forms, "you" first:
/// - every other named and at most two of them: `To you & Ann`, `To you, Ann & Bo`;
/// - otherwise the first named person and a count of the rest: `To you, Ann & 2 others`,
///   `To you, Ann & 1 other`;
/// - or, with nobody named, only the count: `To you & 5 others`.
///
/// So a subtitle never lists more than two others, and a name is never followed by a
/// second name and a count. Calls say `With` instead of `To`.
enum GroupSubtitle {
    enum Preposition: String {
        case to = "To"
        case with = "With"
    }

    /// The summary for `count` others of whom `named` are known by name (in order), or
    /// nil when there are no others (not a group). `count` below `named.count` counts
    /// the named.
    static func summary(named: [String], count: Int, preposition: Preposition) -> String? {
        let others = max(count, named.count)
        guard others > 0 else { return nil }
        let start = preposition.rawValue + " you"
        if named.count == others, others <= 2 {
            return others == 1 ? "\(start) & \(named[0])" : "\(start), \(named[0]) & \(named[1])"
        }
        if let first = named.first {
            return "\(start), \(first) & \(counted(others - 1))"
        }
        return "\(start) & \(counted(others))"
    }

    private static func counted(_ number: Int) -> String {
        number == 1 ? "1 other" : "\(number) others"
    }
}
