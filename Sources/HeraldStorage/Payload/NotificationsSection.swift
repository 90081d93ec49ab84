import Foundation
import HeraldCore
import HeraldProtocol

/// Each uid's notification list: one entry per notification, each uid's delivered ones in
/// the order they were delivered, then its scheduled ones, so the list restored is the
/// list written. A snapshot of an earlier format has no lists, and restores them empty.
///
/// The section is the JSON of ``Form``, as Foundation's encoder writes it. A full list
/// (100,000 notifications: 20 µs each way through Foundation) is encoded and decoded in
/// runs of ``entriesPerRun`` entries on every core at once, and the runs' JSON is spliced
/// into the same bytes one encoder would write (``ListJSON``), so a snapshot reads the same
/// whichever heraldd wrote it.
enum NotificationsSection: JSONSnapshotSection {
    static let name = "notifications"
    static let since: UInt32 = 3

    /// Entries encoded or decoded together, on one thread. The fuzz build (`Fuzz/build.sh`)
    /// cuts runs of two, so that the snapshot target's inputs, at most 64 KiB, reach the
    /// decoding in runs and its splicing.
    #if HERALD_FUZZ
    static let entriesPerRun = 2
    #else
    static let entriesPerRun = 2048
    #endif

    struct Form: Codable {
        struct Entry: Codable {
            var uid: UInt32
            var notification: HeraldNotification
        }

        var notifications: [Entry]
    }

    static func form(of state: HeraldState) -> Form {
        Form(notifications: entries(of: state))
    }

    static func entries(of state: HeraldState) -> [Form.Entry] {
        state.storedNotifications.map { Form.Entry(uid: $0.uid, notification: $0.notification) }
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        try restore(form.notifications, into: &state)
    }

    static func restore(_ entries: [Form.Entry], into state: inout HeraldState) throws(SnapshotFileError) {
        let stored = entries.map { HeraldState.StoredNotification(uid: $0.uid, notification: $0.notification) }
        guard state.restoreNotifications(stored) else {
            throw damaged("lists a notification twice.")
        }
    }

    /// Encodes the entries in runs, on `parallel` when given, and writes the JSON of their
    /// ``Form``.
    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: SnapshotParallelRunner?) throws {
        let entries = entries(of: state)
        let runs = stride(from: 0, to: entries.count, by: entriesPerRun).map { $0..<min($0 + entriesPerRun, entries.count) }
        let arrays = try runEach(runs.count, on: parallel) { index in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(Array(entries[runs[index]]))
        }
        ListJSON.append(arrays: arrays, to: &bytes)
    }

    /// Restores the entries decoded in runs (``entriesInRuns(in:range:)``), or else the
    /// section decoded whole, so that damage is reported as before.
    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        guard let entries = entriesInRuns(in: file, range: range) else {
            try restore(json: Data(file[range]), at: range.lowerBound, into: &state)
            return
        }
        try restore(entries, into: &state)
    }

    /// The entries of the section in `range`, decoded in runs on every core; nil when the
    /// section holds no more than one run, is not laid out as ``ListJSON`` writes it, or
    /// has a run that does not decode.
    static func entriesInRuns(in file: [UInt8], range: Range<Int>) -> [Form.Entry]? {
        guard let elements = ListJSON.elements(in: file, range: range), elements.count > entriesPerRun else { return nil }
        let runs = stride(from: 0, to: elements.count, by: entriesPerRun).map {
            elements[$0].lowerBound..<elements[min($0 + entriesPerRun, elements.count) - 1].upperBound
        }
        let decoded = try? runEach(runs.count, on: runOnEveryCore) { (index: Int) throws -> [Form.Entry] in
            var json = Data(capacity: runs[index].count + 2)
            json.append(UInt8(ascii: "["))
            json.append(contentsOf: file[runs[index]])
            json.append(UInt8(ascii: "]"))
            return try JSONDecoder().decode([Form.Entry].self, from: json)
        }
        return decoded?.flatMap { $0 }
    }

    /// The section's JSON, `{"notifications":[…]}`, made of or cut into the JSON of its
    /// entries.
    enum ListJSON {
        static let prefix = Array(#"{"notifications":["#.utf8)
        static let suffix = Array("]}".utf8)

        /// Appends the section's JSON whose entries are the elements of `arrays`, each the
        /// JSON of an array of entries as Foundation's encoder writes it (no whitespace).
        static func append(arrays: [Data], to bytes: inout [UInt8]) {
            bytes.append(contentsOf: prefix)
            var first = true
            for array in arrays where array.count > 2 {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                bytes.append(contentsOf: array.dropFirst().dropLast())
            }
            bytes.append(contentsOf: suffix)
        }

        /// The ranges of `file` that hold the list's elements, when `range` holds the
        /// section as ``append(arrays:to:)`` writes it: the prefix, objects separated by
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
