import FoundationEssentials

/// A time zone as the Focus schedules and the summary read it: its offset from UTC at any
/// instant and the instants that offset changes.
///
/// Read from the system's tz database (TZif files, RFC 8536; see ``init(identifier:)``)
/// rather than through Foundation's `TimeZone`, whose named zones need ICU and its 30 MB
/// of data in every static program (docs/performance.md, "Programs' size and start-up").
/// Only changes of the offset count: a change of a zone's abbreviation or of its
/// daylight-saving flag alone leaves local times where they were.
package struct ZoneRules: Sendable, Hashable {
    /// The zone's name in the tz database ("Europe/Berlin"), or "UTC".
    package let identifier: String
    /// The instants, in seconds since 1970, the offset changes at, ascending.
    private let changes: [Int64]
    /// The offset, in seconds east of UTC, from each of `changes` on.
    private let offsetsAfter: [Int32]
    /// The offset before the first of `changes`.
    private let initialOffset: Int32
    /// The yearly rule in force from `ruleStart` on (the TZif file's footer); nil keeps
    /// the last offset for ever.
    private let rule: PosixZoneRule?
    private let ruleStart: Int64

    /// UTC, without the tz database.
    package static let utc = ZoneRules(identifier: "UTC", initialOffset: 0, transitions: [], rule: nil)

    /// A zone from its transitions (instant, offset from it on), ascending, and the rule
    /// that follows the last of them.
    init(identifier: String, initialOffset: Int32, transitions: [(at: Int64, offset: Int32)], rule: PosixZoneRule?) {
        var changes: [Int64] = []
        var offsetsAfter: [Int32] = []
        var offset = initialOffset
        for transition in transitions where transition.offset != offset {
            changes.append(transition.at)
            offsetsAfter.append(transition.offset)
            offset = transition.offset
        }
        self.identifier = identifier
        self.changes = changes
        self.offsetsAfter = offsetsAfter
        self.initialOffset = initialOffset
        self.rule = rule
        // RFC 8536 §3.3: the footer describes the instants after the last transition; a
        // file without transitions is the footer alone.
        self.ruleStart = transitions.last?.at ?? .min
    }

    /// The zone's offset from UTC at `date`, in seconds east of it (Berlin in June: 7200).
    package func secondsFromUTC(at date: Date) -> Int {
        Int(offset(at: Self.seconds(date)))
    }

    /// The first instant after `date` at which the offset changes; nil if it never does again.
    package func nextChange(after date: Date) -> Date? {
        nextChange(after: Self.seconds(date)).map { Date(timeIntervalSince1970: Double($0)) }
    }

    func offset(at instant: Int64) -> Int32 {
        if let rule, instant >= ruleStart { return rule.offset(at: instant) }
        // The last change at or before `instant`.
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsetsAfter[low - 1]
    }

    func nextChange(after instant: Int64) -> Int64? {
        if instant < ruleStart || rule == nil {
            var low = 0
            var high = changes.count
            while low < high {
                let middle = (low + high) / 2
                if changes[middle] <= instant { low = middle + 1 } else { high = middle }
            }
            if low < changes.count { return changes[low] }
        }
        guard let rule else { return nil }
        // Where the footer takes over, its first change may repeat the table's last offset.
        var from = max(instant, ruleStart)
        for _ in 0..<4 {
            guard let candidate = rule.nextChange(after: from) else { return nil }
            if offset(at: candidate) != offset(at: candidate - 1) { return candidate }
            from = candidate
        }
        return nil
    }

    /// Whole seconds since 1970 at or before `date`: the changes fall on whole seconds.
    private static func seconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds > 0 ? .max / 2 : .min / 2 }
        return Int64(max(min(seconds, 1e15), -1e15))
    }
}
