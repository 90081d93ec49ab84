import FoundationEssentials
import HeraldProtocol

/// What a snapshot reads of the state and restores into it, as plain values.
///
/// HeraldStorage owns every encoding; these are its only doors into the state. Each
/// `restore…` takes what a snapshot held and answers false where the values are not
/// what the rules could have made (a name or a mark listed twice, summary times out of
/// order): damage, for the reader to refuse. The configuration is not kept, and the call
/// history is rebuilt as the interactions are restored.
extension HeraldState {
    /// A copy of this state for a snapshot to write, taken under the state's lock: all a
    /// snapshot reads, and nothing only the live state reads that its next changes would
    /// then copy (``NotificationList/forSnapshot()``). Linear in the uids with notifications.
    package var forSnapshot: HeraldState {
        var copy = self
        copy.notifications = notifications.forSnapshot()
        return copy
    }

    /// One stored interaction: its donor's uid, its app by number in ``storedAppNames``,
    /// when it was donated, and the interaction, its identifier set.
    package struct StoredRecord: Sendable {
        package var uid: UInt32
        package var app: UInt32
        package var donatedAt: Date
        /// The interaction as the store keeps it, and a snapshot's record holds it.
        package var record: EncodedInteraction
        /// The record's identifier, the key's last part: read where the record is read,
        /// on a restore's decoding threads rather than the one inserting.
        package var identifier: String

        package init(uid: UInt32, app: UInt32, donatedAt: Date, record: EncodedInteraction, identifier: String? = nil) {
            self.uid = uid
            self.app = app
            self.donatedAt = donatedAt
            self.record = record
            self.identifier = identifier ?? record.identifier
        }

        /// The interaction, decoded.
        package var interaction: Interaction { record.interaction }
    }

    // MARK: Interactions

    /// App names by number; a forgotten one's slot holds a placeholder starting with NUL,
    /// so that numbers do not move.
    package var storedAppNames: [String] { interactions.apps.names }

    /// The positions of the donation order, stale ones included: split into ranges, they
    /// let records be visited on several threads at once.
    package var storedRecordPositions: Range<Int> { interactions.donationPositions }

    /// The interactions still stored at `positions` of the donation order, oldest first.
    package func forEachStoredRecord(at positions: Range<Int>, _ body: (StoredRecord) throws -> Void) rethrows {
        try interactions.forEach(at: positions) { key, stored in
            try body(StoredRecord(uid: key.uid, app: key.app, donatedAt: stored.donatedAt, record: stored.record, identifier: key.identifier))
        }
    }

    /// The interactions stored at runs of positions of the donation order, found at once
    /// for all of them (``storedRecordRuns(_:)``), to visit run by run, on several threads
    /// at once, with ``forEachStoredRecord(in:_:)``. Good only for the state that made them,
    /// unchanged: a snapshot's copy.
    package struct StoredRecordRuns: Sendable {
        fileprivate let runs: [InteractionStore.PlacedRun]

        package var count: Int { runs.count }

        /// How many interactions run `index` holds.
        package func recordCount(at index: Int) -> Int { runs[index].count }
    }

    /// The interactions stored at each of `runs`, ranges of ``storedRecordPositions`` each
    /// beginning where the one before ends.
    package func storedRecordRuns(_ runs: [Range<Int>]) -> StoredRecordRuns {
        StoredRecordRuns(runs: interactions.placedRuns(runs))
    }

    /// The interactions of run `index` of `runs` (made from this state), oldest first, each
    /// with its donor's uid, its app by number in ``storedAppNames`` and when it was donated:
    /// no ``StoredRecord`` is built for each.
    package func forEachStoredRecord(
        in runs: StoredRecordRuns, at index: Int,
        _ body: (_ uid: UInt32, _ app: UInt32, _ donatedAt: Date, _ record: EncodedInteraction) throws -> Void
    ) rethrows {
        try interactions.forEach(in: runs.runs[index]) { uid, app, stored in
            try body(uid, app, stored.donatedAt, stored.record)
        }
    }

    /// Takes the app names of an empty store, by number; false when one is listed twice
    /// (records refer to apps by position: a name twice would shift them).
    package mutating func restoreAppNames(_ names: [String]) -> Bool {
        precondition(interactions.count == 0 && interactions.apps.names.isEmpty, "App names are restored first.")
        for name in names {
            _ = interactions.appID(interning: name)
        }
        return interactions.apps.names.count == names.count
    }

    /// Makes room for `count` more interactions, so that a restore does not grow the
    /// tables a doubling at a time.
    package mutating func reserveStoredRecords(_ count: Int) {
        interactions.reserveCapacity(interactions.count + count)
    }

    /// Stores a record read back, as the newest donation; false when its app number is
    /// not in ``storedAppNames`` or it has no identifier. A record whose key is stored
    /// already replaces it: compare ``interactionCount`` with the records restored.
    package mutating func restoreRecord(_ record: consuming StoredRecord) -> Bool {
        guard Int(record.app) < interactions.apps.names.count else { return false }
        interactions.insert(record.record, identifier: record.identifier, uid: record.uid, app: record.app, donatedAt: record.donatedAt)
        return true
    }

    // MARK: Silenced conversations

    /// A conversation a uid's current Focus activation silenced.
    package struct SilencedMark: Sendable, Hashable {
        package var uid: UInt32
        package var app: String
        package var conversationIdentifier: String
        /// The activation it belongs to; nil in a format 3 snapshot (the section's one).
        package var activation: UInt64?

        package init(uid: UInt32, app: String, conversationIdentifier: String, activation: UInt64? = nil) {
            self.uid = uid
            self.app = app
            self.conversationIdentifier = conversationIdentifier
            self.activation = activation
        }
    }

    /// The highest activation, and the marks, sorted, each with its activation.
    package var storedSilencedMarks: (activation: UInt64, marks: [SilencedMark]) {
        let marks = silenced.marks
            .map { SilencedMark(uid: $0.conversation.uid, app: $0.conversation.app, conversationIdentifier: $0.conversation.conversationIdentifier, activation: $0.activation) }
            .sorted { ($0.uid, $0.app, $0.conversationIdentifier) < ($1.uid, $1.app, $1.conversationIdentifier) }
        return (silenced.activation, marks)
    }

    /// False when a conversation is marked twice, or a uid's marks name two activations.
    /// A mark without its own activation belongs to `activation`.
    package mutating func restoreSilencedMarks(activation: UInt64, marks: [SilencedMark]) -> Bool {
        let restored = SilencedConversations(marks: marks.map {
            (SilencedConversations.Conversation(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier), $0.activation ?? activation)
        })
        guard let restored else { return false }
        silenced = restored
        return true
    }

    // MARK: App settings

    /// A (uid, app)'s Focus authorization and capabilities.
    package struct StoredAppSetting: Sendable, Hashable {
        package var uid: UInt32
        package var app: String
        package var authorization: AuthorizationStatus
        package var capabilities: Capabilities

        package init(uid: UInt32, app: String, authorization: AuthorizationStatus, capabilities: Capabilities) {
            self.uid = uid
            self.app = app
            self.authorization = authorization
            self.capabilities = capabilities
        }
    }

    /// Every (uid, app) someone decided about, sorted, so that equal settings are written
    /// equally.
    package var storedAppSettings: [StoredAppSetting] {
        settings.entriesSorted.map {
            StoredAppSetting(uid: $0.key.uid, app: $0.key.app, authorization: $0.entry.authorization, capabilities: $0.entry.capabilities)
        }
    }

    private struct StoredAppSettingKey: Hashable {
        var uid: UInt32
        var app: String
    }

    /// False when a (uid, app) has settings twice.
    package mutating func restoreAppSettings(_ stored: [StoredAppSetting]) -> Bool {
        var restored = AppSettings()
        var seen: Set<StoredAppSettingKey> = []
        for setting in stored {
            guard seen.insert(StoredAppSettingKey(uid: setting.uid, app: setting.app)).inserted else { return false }
            restored.setAuthorization(setting.authorization, uid: setting.uid, app: setting.app)
            restored.setCapabilities(setting.capabilities, uid: setting.uid, app: setting.app)
        }
        settings = restored
        return true
    }
}

// MARK: Notifications

extension HeraldState {
    /// One notification of one uid's list.
    package struct StoredNotification: Sendable, Hashable {
        package var uid: UInt32
        package var notification: HeraldNotification

        package init(uid: UInt32, notification: HeraldNotification) {
            self.uid = uid
            self.notification = notification
        }
    }

    /// Every uid's notifications: its delivered ones in the order they were delivered (the
    /// order `--max-notifications` evicts in), then its scheduled ones. Restoring them in
    /// this order gives back the same lists.
    package var storedNotifications: [StoredNotification] {
        var stored: [StoredNotification] = []
        stored.reserveCapacity(notifications.count)
        notifications.forEachInOrder { uid, notification in
            stored.append(StoredNotification(uid: uid, notification: notification))
        }
        return stored
    }

    /// False when a notification is listed twice or names no app.
    ///
    /// Each uid's list is held to `--max-notification-bytes` as it is counted now (its
    /// search index included, which a snapshot of an older build did not count): the
    /// oldest delivered go first, and a scheduled one that does not fit beside the others
    /// is dropped, rather than the snapshot refused. The count is not held to
    /// `--max-notifications`: the next new notification evicts.
    package mutating func restoreNotifications(_ stored: [StoredNotification]) -> Bool {
        var restore = notificationListRestore()
        for entry in stored {
            guard restore.add(entry) else { return false }
        }
        restoreNotifications(restore)
        return true
    }

    /// A notification list restored one entry at a time, in the order of
    /// ``storedNotifications``, as the entries are read: a snapshot's reader inserts each run
    /// of them while the next is still being decoded. ``restoreNotifications(_:)-([StoredNotification])``
    /// says what is kept.
    package struct NotificationListRestore {
        fileprivate var list = NotificationList()
        fileprivate let byteLimit: Int

        /// False when the entry is listed already or names no app: damage, not a list to serve.
        package mutating func add(_ entry: StoredNotification) -> Bool {
            let notification = entry.notification
            // A name starting with a NUL is no app's (the list's app table keeps such names for free numbers).
            guard notification.app.utf8.first != 0,
                list.notification(uid: entry.uid, app: notification.app, identifier: notification.identifier) == nil
            else { return false }
            // Only the byte limit refuses here; what it refuses is left out.
            _ = try? list.insert(notification, uid: entry.uid, limit: .max, byteLimit: byteLimit)
            return true
        }
    }

    /// An empty list to restore into, held to this state's byte limit.
    package func notificationListRestore() -> NotificationListRestore {
        NotificationListRestore(byteLimit: configuration.maxNotificationBytesPerUID)
    }

    /// Takes `restore`'s list as the notification list.
    package mutating func restoreNotifications(_ restore: consuming NotificationListRestore) {
        notifications = restore.list
    }
}

// MARK: The store, restored after the rest

extension HeraldState {
    /// Whether this state is ready for its store to be restored apart (``takeStore(from:)``):
    /// no snapshot of format 3's host settings waits for the uids of the store to be known.
    package var restoresStoreApart: Bool { legacyHostSettings == nil }

    /// Takes the interactions and notifications of `restored`, a state a snapshot's store
    /// sections were restored into on their own, in place of this state's, which have none:
    /// heraldd answers what needs neither while they restore (docs/operations.md, "Exit when
    /// idle"). Everything else in `restored` is left.
    package mutating func takeStore(from restored: inout HeraldState) {
        precondition(interactions.count == 0 && notifications.count == 0, "The store is taken into a state without one.")
        swap(&interactions, &restored.interactions)
        swap(&notifications, &restored.notifications)
    }
}
