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
enum NotificationRecordsSection: RecordChunkSection {
    static let name = "notification-records"
    static let since: UInt32 = 7
    static let isStore = true
    /// The same member, and the same JSON, as the JSON section's: `heraldctl
    /// inspect-snapshot --json` reads the same whichever format the file has.
    static let inspectionMember = NotificationsSection.name

    static func write(_ state: HeraldState, to pieces: inout PayloadPieces, parallel: ParallelWork?) throws {
        // The entries where the list keeps them, in its order: no copy of each is made.
        let order = state.storedNotificationOrder
        let tables = Tables(of: state, order)
        let chunkSize = NotificationRecordLayout.chunkSize
        let runs = stride(from: 0, to: order.count, by: chunkSize).map { $0..<Swift.min($0 + chunkSize, order.count) }
        let chunks = try runEach(runs.count, on: parallel) { index in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(runs[index].count * 192)
            var position = runs[index].lowerBound
            InteractionRecordWriter.appending(to: &buffer) { writer in
                state.forEachStoredNotification(in: order, at: runs[index]) { entry in
                    writer.appendNotification(
                        entry, uid: entry.uid, app: Int(tables.appNumbers[position]), reasons: Int(tables.reasonNumbers[position]))
                    position += 1
                }
            }
            return buffer
        }
        pieces.tail.appendStrings(tables.apps)
        var reasons: [UInt8] = []
        InteractionRecordWriter.appending(to: &reasons) { writer in
            writer.appendVarint(UInt64(tables.reasonLists.count))
            for list in tables.reasonLists { writer.appendReasons(list) }
        }
        pieces.tail.appendLengthPrefixed(reasons)
        pieces.tail.appendVarint(UInt64(chunks.count))
        for chunk in chunks {
            pieces.tail.appendVarint(UInt64(chunk.count))
            pieces.append(chunk: chunk)
        }
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

    /// The section's app names and reason lists, each in order of first use in the list,
    /// and each notification's numbers among them, by its position in the list's order.
    struct Tables: Sendable {
        var apps: [String] = []
        var reasonLists: [[DeliveryReason]] = []
        var appNumbers: [UInt32] = []
        var reasonNumbers: [UInt32] = []

        /// A uid's app is looked up by its number in the uid's table, its name hashed once;
        /// a reason list by its storage, which the list shares between the notifications
        /// decided alike, and by its value only the first time that storage is met.
        init(of state: HeraldState, _ order: HeraldState.StoredNotificationOrder) {
            appNumbers.reserveCapacity(order.count)
            reasonNumbers.reserveCapacity(order.count)
            var appsOfUIDs: [UInt64: UInt32] = [:]
            var appsByName: [String: UInt32] = [:]
            var listsByStorage: [UInt: UInt32] = [:]
            var listsByValue: [[DeliveryReason]: UInt32] = [:]
            var last: (app: UInt64, appNumber: UInt32, storage: UInt, reasons: UInt32)?
            state.forEachStoredNotification(in: order, at: 0..<order.count) { entry in
                let appOfUID = UInt64(entry.uid) << 32 | UInt64(entry.appNumber)
                let app: UInt32
                if let last, last.app == appOfUID {
                    app = last.appNumber
                } else if let known = appsOfUIDs[appOfUID] {
                    app = known
                } else {
                    app = appsByName[entry.app] ?? UInt32(apps.count)
                    if app == apps.count {
                        apps.append(entry.app)
                        appsByName[entry.app] = app
                    }
                    appsOfUIDs[appOfUID] = app
                }
                let list = entry.delivery.reasons
                // Empty, a list may have no storage of its own (0): found by its value.
                let storage = list.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                let reasons: UInt32
                if storage != 0, let last, last.storage == storage {
                    reasons = last.reasons
                } else if storage != 0, let known = listsByStorage[storage] {
                    reasons = known
                } else {
                    reasons = listsByValue[list] ?? UInt32(reasonLists.count)
                    if reasons == reasonLists.count {
                        reasonLists.append(list)
                        listsByValue[list] = reasons
                    }
                    if storage != 0 { listsByStorage[storage] = reasons }
                }
                last = (appOfUID, app, storage, reasons)
                appNumbers.append(app)
                reasonNumbers.append(reasons)
            }
        }
    }
}
