import HeraldCore
import HeraldProtocol

/// Each uid's notification list as JSON, in snapshots of formats 3 to 6: one entry per
/// notification, each uid's delivered ones in the order they were delivered, then its
/// scheduled ones, so the list restored is the list written. A snapshot of an earlier
/// format has no lists, and restores them empty; format 7 keeps them as binary records
/// (``NotificationRecordsSection``), which restore in a fraction of the time. Read from
/// older files only; its writer is kept for the tests that make such files.
///
/// The section is `{"notifications":[{"notification":…,"uid":…}, …]}`, each notification a
/// ``NotificationRecord``. A full list (100,000 notifications) is written and read in runs
/// of ``entriesPerRun`` entries on every core at once, and the runs' JSON is spliced into
/// the same bytes one writer would write (``ListJSON``), so a snapshot reads the same
/// whichever heraldd wrote it.
enum NotificationsSection: JSONSnapshotSection {
    static let name = "notifications"
    static let since: UInt32 = 3
    static let retiredIn: UInt32? = 7
    static let isStore = true

    /// Entries encoded or decoded together, on one thread. The fuzz build (`Fuzz/build.sh`)
    /// cuts runs of two, so that the snapshot target's inputs, at most 64 KiB, reach the
    /// decoding in runs and its splicing.
    #if HERALD_FUZZ
    static let entriesPerRun = 2
    #else
    static let entriesPerRun = 2048
    #endif

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("notifications", state.storedNotifications, entryJSON)
        return form.value
    }

    static func entryJSON(_ entry: HeraldState.StoredNotification, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 2)
        members.add("notification", NotificationRecord.json(entry.notification, style))
        members.add("uid", entry.uid)
        return members.value
    }

    static func readEntry(_ entry: RecordReader) throws(RecordDamage) -> HeraldState.StoredNotification {
        HeraldState.StoredNotification(uid: try entry.integer("uid"), notification: try entry.record("notification", NotificationRecord.read))
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        try restore(try reading { () throws(RecordDamage) in try RecordReader(json).records("notifications", readEntry) }, into: &state)
    }

    static func restore(_ entries: [HeraldState.StoredNotification], into state: inout HeraldState) throws(SnapshotFileError) {
        guard state.restoreNotifications(entries) else {
            throw damaged("lists a notification twice.")
        }
    }

    /// Writes the entries in runs, on `parallel` when given, spliced into one list.
    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws {
        let entries = state.storedNotifications
        let runs = stride(from: 0, to: entries.count, by: entriesPerRun).map { $0..<min($0 + entriesPerRun, entries.count) }
        let texts = try runEach(runs.count, on: parallel) { index in
            var text: [UInt8] = []
            for position in runs[index] {
                if position != runs[index].lowerBound { text.append(UInt8(ascii: ",")) }
                entryJSON(entries[position], .snapshot).write(to: &text)
            }
            return text
        }
        ListJSON.append(runs: texts, to: &bytes)
    }

    /// Restores the entries read in runs (``entriesInRuns(in:range:)``), or else the
    /// section read whole, so that damage is reported as before.
    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        guard let entries = entriesInRuns(in: file, range: range) else {
            try restore(json: file[range], at: range.lowerBound, into: &state)
            return
        }
        try restore(entries, into: &state)
    }

    /// The entries of the section in `range`, read in runs on every core; nil when the
    /// section holds no more than one run, is not laid out as ``ListJSON`` writes it, or
    /// has a run that does not read.
    static func entriesInRuns(in file: [UInt8], range: Range<Int>) -> [HeraldState.StoredNotification]? {
        guard let elements = ListJSON.elements(in: file, range: range), elements.count > entriesPerRun else { return nil }
        let runs = stride(from: 0, to: elements.count, by: entriesPerRun).map { elements[$0..<min($0 + entriesPerRun, elements.count)] }
        let decoded = try? runEach(runs.count, on: runOnEveryCore) { (index: Int) throws -> [HeraldState.StoredNotification] in
            var entries: [HeraldState.StoredNotification] = []
            entries.reserveCapacity(runs[index].count)
            for element in runs[index] {
                let json = try JSONParser.parse(file[element], maxDepth: sectionMaximumDepth)
                entries.append(try readEntry(try RecordReader(json)))
            }
            return entries
        }
        return decoded?.flatMap { $0 }
    }

    /// The section's JSON, `{"notifications":[…]}`, made of or cut into the JSON of its
    /// entries.
    enum ListJSON {
        static let prefix = Array(#"{"notifications":["#.utf8)
        static let suffix = Array("]}".utf8)

        /// Appends the section's JSON whose entries are those of `runs`, each the JSON of
        /// entries separated by commas, with no whitespace.
        static func append(runs: [[UInt8]], to bytes: inout [UInt8]) {
            bytes.append(contentsOf: prefix)
            var first = true
            for run in runs where !run.isEmpty {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                bytes.append(contentsOf: run)
            }
            bytes.append(contentsOf: suffix)
        }

        /// The ranges of `file` that hold the list's elements, when `range` holds the
        /// section as ``append(runs:to:)`` writes it: the prefix, objects separated by
        /// commas with no whitespace, the suffix. Nil for anything else; that an element is
        /// valid JSON is left to the decoder.
        static func elements(in file: [UInt8], range: Range<Int>) -> [Range<Int>]? {
            guard range.count >= prefix.count + suffix.count,
                file[range.lowerBound..<range.lowerBound + prefix.count].elementsEqual(prefix),
                file[range.upperBound - suffix.count..<range.upperBound].elementsEqual(suffix)
            else { return nil }
            let end = range.upperBound - suffix.count
            var elements: [Range<Int>] = []
            var index = range.lowerBound + prefix.count
            while index < end {
                if !elements.isEmpty {
                    guard file[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
                guard index < end, file[index] == UInt8(ascii: "{"), let close = objectEnd(in: file, from: index, before: end) else {
                    return nil
                }
                elements.append(index..<close)
                index = close
            }
            return elements
        }

        /// The index just past the object that opens at `start`, found by balancing
        /// brackets outside strings; nil when it does not close before `end`.
        private static func objectEnd(in file: [UInt8], from start: Int, before end: Int) -> Int? {
            var depth = 0
            var inString = false
            var index = start
            while index < end {
                let byte = file[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { return index + 1 }
                    default: break
                    }
                }
                index += 1
            }
            return nil
        }
    }
}
