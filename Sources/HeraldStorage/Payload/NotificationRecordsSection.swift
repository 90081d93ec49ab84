import HeraldCore
import HeraldProtocol

/// Each uid's notification list as binary records (format 7 on): the app-name table (a
/// count, then each name), the table of the deliveries' reason lists (its length, then a
/// count and each list), then the record chunks (a count, then each chunk's length and
/// bytes). A chunk holds up to ``NotificationRecordLayout/chunkSize`` notifications, laid
/// out as `NotificationRecordCoding.swift` says, in the order of the list
/// (``HeraldState/storedNotifications``), so the list restored is the list written.
///
/// Chunks are independent: a snapshot encodes them and a start decodes them on every core
/// at once, while one thread inserts each chunk into the list as soon as it is decoded.
/// Snapshots of formats 3 to 6 keep the list as JSON (``NotificationsSection``).
enum NotificationRecordsSection: SnapshotSection {
    static let name = "notification-records"
    static let since: UInt32 = 7
    static let isStore = true
    /// The same member, and the same JSON, as the JSON section's: `heraldctl
    /// inspect-snapshot --json` reads the same whichever format the file has.
    static let inspectionMember = NotificationsSection.name

    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws {
        let entries = state.storedNotifications
        let (apps, appNumbers) = table(of: entries) { $0.notification.app }
        let (reasonLists, reasonNumbers) = table(of: entries) { $0.notification.delivery.reasons }
        let chunkSize = NotificationRecordLayout.chunkSize
        let runs = stride(from: 0, to: entries.count, by: chunkSize).map { $0..<Swift.min($0 + chunkSize, entries.count) }
        let chunks = try runEach(runs.count, on: parallel) { index in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(runs[index].count * 192)
            InteractionRecordWriter.appending(to: &buffer) { writer in
                for position in runs[index] {
                    writer.appendNotification(entries[position], app: appNumbers[position], reasons: reasonNumbers[position])
                }
            }
            return buffer
        }
        bytes.reserveCapacity(bytes.count + chunks.reduce(0) { $0 + $1.count + 5 } + apps.reduce(9) { $0 + $1.utf8.count + 2 })
        bytes.appendStrings(apps)
        var reasons: [UInt8] = []
        InteractionRecordWriter.appending(to: &reasons) { writer in
            writer.appendVarint(UInt64(reasonLists.count))
            for list in reasonLists { writer.appendReasons(list) }
        }
        bytes.appendLengthPrefixed(reasons)
        bytes.appendVarint(UInt64(chunks.count))
        for chunk in chunks { bytes.appendLengthPrefixed(chunk) }
    }

    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        let (apps, reasonLists, chunks) = try file.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in
                var input = PayloadReader(raw, range: range)
                let apps = try input.strings()
                var reasons = InteractionRecordReader(file: raw, range: try input.lengthPrefixed(), appCount: 0, rareMembers: .json)
                let listCount = try reasons.count()
                var reasonLists: [[DeliveryReason]] = []
                reasonLists.reserveCapacity(listCount)
                for _ in 0..<listCount { reasonLists.append(try reasons.reasons()) }
                guard reasons.isAtEnd else { throw input.damaged(at: reasons.input.cursor, "the table of reason lists has bytes past its last list.") }
                let count = try input.count()
                var chunks: [Range<Int>] = []
                for _ in 0..<count { chunks.append(try input.lengthPrefixed()) }
                guard input.isAtEnd else { throw input.damaged(at: input.cursor, "the \(name) section has bytes past its last chunk.") }
                return (apps, reasonLists, chunks)
            }
        }.get()
        let decoded = chunks.map {
            DecodedChunk<HeraldState.StoredNotification>(
                expecting: $0.count, chunkSize: NotificationRecordLayout.chunkSize, minimumRecordSize: NotificationRecordLayout.minimumRecordSize)
        }
        var list = state.notificationListRestore()
        var failure: SnapshotFileError?
        file.withUnsafeBytes { bytes in
            nonisolated(unsafe) let file = bytes
            DetachedThread.start(named: "herald-restore") {
                runOnEveryCore(chunks.count) { index in
                    decoded[index].fill(InteractionRecordReader(file: file, range: chunks[index], appCount: apps.count, rareMembers: .json)) {
                        reader throws(SnapshotFileError) in try reader.nextNotification(apps: apps, reasonLists: reasonLists)
                    }
                }
            }
            // The workers read `file`: every one must be done before it goes away.
            defer {
                for chunk in decoded { chunk.waitUntilFilled() }
            }
            for (chunk, range) in zip(decoded, chunks) {
                chunk.waitUntilFilled()
                if let error = chunk.failure {
                    failure = error
                    return
                }
                chunk.removeAll { entry in
                    guard failure == nil, !list.add(entry) else { return }
                    failure = SnapshotFileError(
                        .undecodable,
                        "The checksums hold but the state does not decode: the chunk of notifications at file byte \(range.lowerBound) lists \(entry.notification.app) \(entry.notification.identifier) again, or names no app."
                    )
                }
                if failure != nil { return }
            }
        }
        if let failure { throw failure }
        state.restoreNotifications(list)
    }

    static func inspection(of state: HeraldState) -> JSONValue {
        NotificationsSection.inspection(of: state)
    }

    /// The distinct values `key` gives the entries, in order of first use, and each entry's
    /// number among them.
    private static func table<Value: Hashable>(
        of entries: [HeraldState.StoredNotification], _ key: (HeraldState.StoredNotification) -> Value
    ) -> (values: [Value], numbers: [Int]) {
        var numbers: [Value: Int] = [:]
        var values: [Value] = []
        let entryNumbers = entries.map { entry in
            let value = key(entry)
            if let number = numbers[value] { return number }
            numbers[value] = values.count
            values.append(value)
            return values.count - 1
        }
        return (values, entryNumbers)
    }
}
