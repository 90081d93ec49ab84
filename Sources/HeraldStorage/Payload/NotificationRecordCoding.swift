import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// One notification of a uid's list in a record chunk (``NotificationRecordsSection``),
/// written and read with the interaction records' primitives.
///
/// A record is, in order:
/// - `uid`, the app's number in the section's app table, the flags
///   (``NotificationRecordFlags``; varints), `identifier`, `state` (a byte), `receivedAt`,
///   then `deliveredAt` and `snoozedUntil` when set (dates as 8 bytes: the bit pattern of
///   their `timeIntervalSinceReferenceDate`);
/// - the content: `title`, `subtitle`, `body`, `threadIdentifier`, `categoryIdentifier`,
///   `targetContentIdentifier`, `interruptionLevel`, `relevanceScore` (8 bytes), `badge` (a
///   zigzag varint), then the client's `filterCriteria`, `sound`, `attachments` and
///   `userInfo` (rare members, JSON), each when set; then the communication when set: its
///   `type`, `conversationIdentifier` and `sender` when set, `recipients` (a count of
///   people), `avatar` (rare) when set, its booleans being flags;
/// - the delivery: `presentation`, `deliverAt` when set, the `reasons` (their list's number
///   in the section's table of reason lists, since a few lists, their messages up to a few
///   hundred bytes, serve most notifications), `appVerifiedBy` when set, its booleans
///   being flags;
/// - `actions` (rare: a JSON array of ``CategoryRecord`` actions) and `categoryOptions` (a
///   count, then each) when set.
extension NotificationRecordFlags {
    /// The flags of `notification`'s members, its `content` and `delivery` read once by
    /// the caller (a list's entry makes a copy of them at each read).
    init(of notification: some NotificationRecordSource, content: NotificationContent, delivery: Delivery) {
        self = []
        let present: [(Bool, NotificationRecordFlags)] = [
            (notification.deliveredAt != nil, .hasDeliveredAt), (notification.snoozedUntil != nil, .hasSnoozedUntil),
            (notification.actions != nil, .hasActions), (notification.categoryOptions != nil, .hasCategoryOptions),
            (content.title != nil, .hasTitle), (content.subtitle != nil, .hasSubtitle), (content.body != nil, .hasBody),
            (content.threadIdentifier != nil, .hasThreadIdentifier), (content.categoryIdentifier != nil, .hasCategoryIdentifier),
            (content.targetContentIdentifier != nil, .hasTargetContentIdentifier),
            (content.interruptionLevel != nil, .hasInterruptionLevel), (content.relevanceScore != nil, .hasRelevanceScore),
            (content.badge != nil, .hasBadge), (content.filterCriteria != nil, .hasFilterCriteria), (content.sound != nil, .hasSound),
            (content.attachments != nil, .hasAttachments), (content.userInfo != nil, .hasUserInfo),
            (content.communication != nil, .hasCommunication),
            (delivery.deliverAt != nil, .hasDeliverAt), (delivery.sound, .playsSound), (delivery.lightsScreen, .lightsScreen),
            (delivery.breaksThroughFocus, .breaksThroughFocus), (delivery.breaksThroughSummary, .breaksThroughSummary),
            (delivery.bypassesRinger, .bypassesRinger), (delivery.announce, .announce), (delivery.appVerifiedBy != nil, .hasAppVerifiedBy),
        ]
        for (isSet, flag) in present where isSet { insert(flag) }
        if let communication = content.communication {
            if communication.conversationIdentifier != nil { insert(.hasConversationIdentifier) }
            if communication.sender != nil { insert(.hasSender) }
            if communication.isGroup { insert(.isGroup) }
            if communication.avatar != nil { insert(.hasAvatar) }
            if communication.mentionsCurrentUser { insert(.mentionsCurrentUser) }
            if communication.isReplyToCurrentUser { insert(.isReplyToCurrentUser) }
        }
    }
}

/// What a notification's record is written from: a list's entry where the list keeps it
/// (a snapshot's), or a notification.
protocol NotificationRecordSource {
    var identifier: String { get }
    var content: NotificationContent { get }
    var delivery: Delivery { get }
    var state: NotificationState { get }
    var receivedAt: Date { get }
    var deliveredAt: Date? { get }
    var snoozedUntil: Date? { get }
    var actions: [NotificationAction]? { get }
    var categoryOptions: [NotificationCategoryOption]? { get }
}

extension HeraldNotification: NotificationRecordSource {}
extension HeraldState.StoredNotificationEntry: NotificationRecordSource {}

extension InteractionRecordWriter {
    /// ``appendCase(_:of:)`` for this module's tables, made in this module so that each
    /// table's type specializes it: HeraldCore's, called from here, stays generic (even
    /// marked `@inlinable`), looks up its types' metadata and witnesses in the runtime at
    /// each call, and was a fifth of a compaction's notification records.
    @inline(__always)
    fileprivate mutating func appendTableCase<T: Equatable>(_ value: T, of table: [T]) {
        guard let index = table.firstIndex(of: value) else {
            preconditionFailure("\(value) is missing from its table in NotificationRecordLayout.")
        }
        bytes.append(UInt8(index))
    }

    /// Appends `entry`, whose app is number `app` of the section's app table and whose
    /// delivery's reasons are list number `reasons` of its table of reason lists.
    mutating func appendNotification(_ entry: HeraldState.StoredNotification, app: Int, reasons: Int) {
        appendNotification(entry.notification, uid: entry.uid, app: app, reasons: reasons)
    }

    /// Appends `notification` of `uid`'s list, as ``appendNotification(_:app:reasons:)``.
    mutating func appendNotification(_ notification: some NotificationRecordSource, uid: UInt32, app: Int, reasons: Int) {
        let content = notification.content
        let delivery = notification.delivery
        appendVarint(UInt64(uid))
        appendVarint(UInt64(app))
        appendVarint(NotificationRecordFlags(of: notification, content: content, delivery: delivery).rawValue)
        appendString(notification.identifier)
        appendTableCase(notification.state, of: NotificationRecordLayout.states)
        appendDouble(notification.receivedAt.timeIntervalSinceReferenceDate)
        if let date = notification.deliveredAt { appendDouble(date.timeIntervalSinceReferenceDate) }
        if let date = notification.snoozedUntil { appendDouble(date.timeIntervalSinceReferenceDate) }

        let texts = [
            content.title, content.subtitle, content.body, content.threadIdentifier, content.categoryIdentifier, content.targetContentIdentifier,
        ]
        for text in texts {
            if let text { appendString(text) }
        }
        if let level = content.interruptionLevel { appendTableCase(level, of: NotificationRecordLayout.interruptionLevels) }
        if let score = content.relevanceScore { appendDouble(score) }
        if let badge = content.badge { appendVarint(UInt64(bitPattern: Int64(badge) << 1 ^ Int64(badge) >> 63)) }
        for json in [content.filterCriteria, content.sound, content.attachments, content.userInfo] {
            if let json { appendRare(ClientJSON.pairs(json)) }
        }
        if let communication = content.communication {
            appendTableCase(communication.type, of: NotificationRecordLayout.intentTypes)
            if let conversation = communication.conversationIdentifier { appendString(conversation) }
            if let sender = communication.sender { appendPerson(sender) }
            appendPeople(communication.recipients)
            if let avatar = communication.avatar { appendRare(ImageRecord.json(avatar, .snapshot)) }
        }

        appendTableCase(delivery.presentation, of: NotificationRecordLayout.presentations)
        if let date = delivery.deliverAt { appendDouble(date.timeIntervalSinceReferenceDate) }
        appendVarint(UInt64(reasons))
        if let verifiedBy = delivery.appVerifiedBy { appendString(verifiedBy) }

        if let actions = notification.actions { appendRare(.array(actions.map { CategoryRecord.actionJSON($0, .snapshot) })) }
        if let options = notification.categoryOptions {
            appendVarint(UInt64(options.count))
            for option in options { appendTableCase(option, of: NotificationRecordLayout.categoryOptions) }
        }
    }

    /// Appends a list of a delivery's reasons, for the section's table: a count, then each
    /// one's code, message, and causes as a varint (0 for none, else their count plus one)
    /// followed by each cause.
    mutating func appendReasons(_ reasons: [DeliveryReason]) {
        appendVarint(UInt64(reasons.count))
        for reason in reasons {
            appendTableCase(reason.code, of: NotificationRecordLayout.reasonCodes)
            appendString(reason.message)
            appendVarint(reason.causes.map { UInt64($0.count) + 1 } ?? 0)
            for cause in reason.causes ?? [] { appendTableCase(cause, of: NotificationRecordLayout.silencedCauses) }
        }
    }
}

extension InteractionRecordReader {
    /// The next notification, its app named by `apps` and its reasons listed in
    /// `reasonLists`, the section's tables.
    mutating func nextNotification(apps: [String], reasonLists: [[DeliveryReason]]) throws(SnapshotFileError) -> HeraldState.StoredNotification {
        let start = input.cursor
        guard let uid = UInt32(exactly: try varint()) else { throw corrupted(at: start, "a notification's uid is out of range.") }
        let app = try varint()
        guard app < UInt64(apps.count) else { throw corrupted(at: start, "a notification names app \(app) of \(apps.count).") }
        let flagsAt = input.cursor
        let flags = NotificationRecordFlags(rawValue: try varint())
        guard NotificationRecordFlags.known.isSuperset(of: flags) else { throw corrupted(at: flagsAt, "a notification has unknown flags.") }
        if !flags.contains(.hasCommunication) {
            let communicationFlags: NotificationRecordFlags = [
                .hasConversationIdentifier, .hasSender, .isGroup, .hasAvatar, .mentionsCurrentUser, .isReplyToCurrentUser,
            ]
            guard flags.isDisjoint(with: communicationFlags) else {
                throw corrupted(at: flagsAt, "a notification without a communication has a communication's flags.")
            }
        }
        let identifier = try string()
        let state = try enumCase(NotificationRecordLayout.states)
        let receivedAt = Date(timeIntervalSinceReferenceDate: try double())
        let deliveredAt = flags.contains(.hasDeliveredAt) ? Date(timeIntervalSinceReferenceDate: try double()) : nil
        let snoozedUntil = flags.contains(.hasSnoozedUntil) ? Date(timeIntervalSinceReferenceDate: try double()) : nil
        var notification = HeraldNotification(
            identifier: identifier, app: apps[Int(app)], content: try content(flags), delivery: try delivery(flags, reasonLists: reasonLists), state: state,
            receivedAt: receivedAt, deliveredAt: deliveredAt, snoozedUntil: snoozedUntil
        )
        if flags.contains(.hasActions) {
            notification.actions = try rare { json throws(RecordDamage) in try RecordReader.records(in: json, CategoryRecord.readAction) }
        }
        if flags.contains(.hasCategoryOptions) {
            let count = try self.count()
            var options: [NotificationCategoryOption] = []
            options.reserveCapacity(count)
            for _ in 0..<count { options.append(try enumCase(NotificationRecordLayout.categoryOptions)) }
            notification.categoryOptions = options
        }
        return HeraldState.StoredNotification(uid: uid, notification: notification)
    }

    private mutating func content(_ flags: NotificationRecordFlags) throws(SnapshotFileError) -> NotificationContent {
        // Read in record order, then built in one initializer call.
        let title = flags.contains(.hasTitle) ? try string() : nil
        let subtitle = flags.contains(.hasSubtitle) ? try string() : nil
        let body = flags.contains(.hasBody) ? try string() : nil
        let threadIdentifier = flags.contains(.hasThreadIdentifier) ? try string() : nil
        let categoryIdentifier = flags.contains(.hasCategoryIdentifier) ? try string() : nil
        let targetContentIdentifier = flags.contains(.hasTargetContentIdentifier) ? try string() : nil
        let interruptionLevel = flags.contains(.hasInterruptionLevel) ? try enumCase(NotificationRecordLayout.interruptionLevels) : nil
        let relevanceScore = flags.contains(.hasRelevanceScore) ? try double() : nil
        var badge: Int?
        if flags.contains(.hasBadge) {
            let zigzag = try varint()
            badge = Int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
        }
        // Not `flag ? … : nil`: a JSON value is a nil literal too, its `null`.
        var filterCriteria: JSONValue?
        var sound: JSONValue?
        var attachments: JSONValue?
        var userInfo: JSONValue?
        if flags.contains(.hasFilterCriteria) { filterCriteria = try rare(ClientJSON.read) }
        if flags.contains(.hasSound) { sound = try rare(ClientJSON.read) }
        if flags.contains(.hasAttachments) { attachments = try rare(ClientJSON.read) }
        if flags.contains(.hasUserInfo) { userInfo = try rare(ClientJSON.read) }
        var communication: CommunicationInfo?
        if flags.contains(.hasCommunication) {
            let type = try enumCase(NotificationRecordLayout.intentTypes)
            let conversationIdentifier = flags.contains(.hasConversationIdentifier) ? try string() : nil
            let sender = flags.contains(.hasSender) ? try person() : nil
            let recipients = try people()
            let avatar = flags.contains(.hasAvatar) ? try rareRecord(ImageRecord.read) : nil
            communication = CommunicationInfo(
                type: type, conversationIdentifier: conversationIdentifier, sender: sender, recipients: recipients,
                isGroup: flags.contains(.isGroup), avatar: avatar, mentionsCurrentUser: flags.contains(.mentionsCurrentUser),
                isReplyToCurrentUser: flags.contains(.isReplyToCurrentUser)
            )
        }
        return NotificationContent(
            title: title, subtitle: subtitle, body: body, threadIdentifier: threadIdentifier, categoryIdentifier: categoryIdentifier,
            targetContentIdentifier: targetContentIdentifier, interruptionLevel: interruptionLevel, relevanceScore: relevanceScore,
            filterCriteria: filterCriteria, badge: badge, sound: sound, attachments: attachments, userInfo: userInfo,
            communication: communication
        )
    }

    private mutating func delivery(_ flags: NotificationRecordFlags, reasonLists: [[DeliveryReason]]) throws(SnapshotFileError) -> Delivery {
        let presentation = try enumCase(NotificationRecordLayout.presentations)
        let deliverAt = flags.contains(.hasDeliverAt) ? Date(timeIntervalSinceReferenceDate: try double()) : nil
        let reasonsAt = input.cursor
        let number = try varint()
        guard number < UInt64(reasonLists.count) else {
            throw corrupted(at: reasonsAt, "a notification names reason list \(number) of \(reasonLists.count).")
        }
        // The table's array itself: every notification of the list shares its storage.
        let reasons = reasonLists[Int(number)]
        var delivery = Delivery(
            presentation: presentation, deliverAt: deliverAt, sound: flags.contains(.playsSound), lightsScreen: flags.contains(.lightsScreen),
            breaksThroughFocus: flags.contains(.breaksThroughFocus), breaksThroughSummary: flags.contains(.breaksThroughSummary),
            bypassesRinger: flags.contains(.bypassesRinger), announce: flags.contains(.announce), reasons: reasons
        )
        if flags.contains(.hasAppVerifiedBy) { delivery.appVerifiedBy = try string() }
        return delivery
    }

    /// A list of a delivery's reasons, of the section's table (``appendReasons(_:)``).
    mutating func reasons() throws(SnapshotFileError) -> [DeliveryReason] {
        let count = try self.count()
        var reasons: [DeliveryReason] = []
        reasons.reserveCapacity(count)
        for _ in 0..<count {
            let code = try enumCase(NotificationRecordLayout.reasonCodes)
            let message = try string()
            let causesAt = input.cursor
            let causesCount = try varint()
            var causes: [SilencedCause]?
            if causesCount > 0 {
                guard causesCount - 1 <= UInt64(input.remaining) else {
                    throw corrupted(at: causesAt, "a count of \(causesCount - 1) causes is larger than the bytes left.")
                }
                var read: [SilencedCause] = []
                read.reserveCapacity(Int(causesCount - 1))
                for _ in 0..<(causesCount - 1) { read.append(try enumCase(NotificationRecordLayout.silencedCauses)) }
                causes = read
            }
            reasons.append(DeliveryReason(code: code, message: message, causes: causes))
        }
        return reasons
    }
}
