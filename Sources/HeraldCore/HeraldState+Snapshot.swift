import Foundation
import HeraldProtocol

/// What a snapshot reads of the state and restores into it, as plain values.
///
/// HeraldStorage owns every encoding; these are its only doors into the state. Each
/// `restore…` takes what a snapshot held and answers false where the values are not
/// what the rules could have made (a name or a mark listed twice, summary times out of
/// order): damage, for the reader to refuse. The configuration is not kept, and the call
/// history is rebuilt as the interactions are restored.
extension HeraldState {
    /// One stored interaction: its donor's uid, its app by number in ``storedAppNames``,
    /// when it was donated, and the interaction, its identifier set.
    package struct StoredRecord: Sendable {
        package var uid: UInt32
        package var app: UInt32
        package var donatedAt: Date
        package var interaction: Interaction

        package init(uid: UInt32, app: UInt32, donatedAt: Date, interaction: Interaction) {
            self.uid = uid
            self.app = app
            self.donatedAt = donatedAt
            self.interaction = interaction
        }
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
            try body(StoredRecord(uid: key.uid, app: key.app, donatedAt: stored.donatedAt, interaction: stored.interaction))
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
        guard Int(record.app) < interactions.apps.names.count, record.interaction.identifier != nil else { return false }
        interactions.insert(record.interaction, uid: record.uid, app: record.app, donatedAt: record.donatedAt)
        return true
    }

    // MARK: Focus

    /// The Focus in effect (nil for none) and the activation count.
    package var storedFocus: (configuration: FocusConfiguration?, activation: UInt64) {
        (focus.configuration, focus.activation)
    }

    package mutating func restoreFocus(_ configuration: FocusConfiguration?, activation: UInt64) {
        focus = FocusState(configuration: configuration, activation: activation)
    }

    // MARK: Silenced conversations

    /// A conversation the current Focus activation silenced.
    package struct SilencedMark: Sendable, Hashable {
        package var uid: UInt32
        package var app: String
        package var conversationIdentifier: String

        package init(uid: UInt32, app: String, conversationIdentifier: String) {
            self.uid = uid
            self.app = app
            self.conversationIdentifier = conversationIdentifier
        }
    }

    /// The activation the marks belong to, and the marks, sorted.
    package var storedSilencedMarks: (activation: UInt64, marks: [SilencedMark]) {
        let marks = silenced.conversations
            .map { SilencedMark(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier) }
            .sorted { ($0.uid, $0.app, $0.conversationIdentifier) < ($1.uid, $1.app, $1.conversationIdentifier) }
        return (silenced.activation, marks)
    }

    /// False when a conversation is marked twice.
    package mutating func restoreSilencedMarks(activation: UInt64, marks: [SilencedMark]) -> Bool {
        let conversations = marks.map {
            SilencedConversations.Conversation(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier)
        }
        guard let restored = SilencedConversations(activation: activation, conversations: conversations) else { return false }
        silenced = restored
        return true
    }

    // MARK: Summary

    /// The summary's apps and its times of day, as `set-summary` left them.
    package var storedSummary: (apps: [String], times: [(hour: Int, minute: Int, second: Int)]) {
        (summary.apps, summary.times.map { ($0.hour, $0.minute, $0.second) })
    }

    /// False unless the values are as `set-summary` makes them: no app or time twice, the
    /// times sorted, each a time of day.
    package mutating func restoreSummary(apps: [String], times: [(hour: Int, minute: Int, second: Int)]) -> Bool {
        let clockTimes = times.map { ClockTime(hour: $0.hour, minute: $0.minute, second: $0.second) }
        let restored = SummarySchedule(apps: apps, times: clockTimes)
        guard restored.apps == apps, restored.times == clockTimes, clockTimes.allSatisfy(\.isTimeOfDay) else { return false }
        summary = restored
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

    /// False when a (uid, app) has settings twice.
    package mutating func restoreAppSettings(_ stored: [StoredAppSetting]) -> Bool {
        var restored = AppSettings()
        for setting in stored {
            guard !restored.contains(uid: setting.uid, app: setting.app) else { return false }
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

    /// False when a notification is listed twice, names no app, or a list holds more than a list can.
    package mutating func restoreNotifications(_ stored: [StoredNotification]) -> Bool {
        var restored = NotificationList()
        for entry in stored {
            let notification = entry.notification
            // A name starting with a NUL is no app's (the list's app table keeps such names for free numbers).
            guard notification.app.utf8.first != 0,
                restored.notification(uid: entry.uid, app: notification.app, identifier: notification.identifier) == nil
            else { return false }
            do {
                try restored.insert(notification, uid: entry.uid, limit: .max)
            } catch {
                return false
            }
        }
        notifications = restored
        return true
    }
}
