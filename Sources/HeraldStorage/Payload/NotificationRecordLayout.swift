import HeraldCore
import HeraldProtocol

/// Which members a notification record has: its flags, a varint after its uid and app.
/// Booleans are flags too, so that a record spends no byte on them.
///
/// Flags and enum numbers are only ever appended: snapshots depend on them. A member
/// added to `HeraldNotification`, its content, its delivery or its communication is a
/// flag here and a write and a read in `NotificationRecordCoding.swift`.
struct NotificationRecordFlags: OptionSet {
    let rawValue: UInt64

    static let hasDeliveredAt = NotificationRecordFlags(rawValue: 1 << 0)
    static let hasSnoozedUntil = NotificationRecordFlags(rawValue: 1 << 1)
    static let hasActions = NotificationRecordFlags(rawValue: 1 << 2)
    static let hasCategoryOptions = NotificationRecordFlags(rawValue: 1 << 3)
    // The content's members.
    static let hasTitle = NotificationRecordFlags(rawValue: 1 << 4)
    static let hasSubtitle = NotificationRecordFlags(rawValue: 1 << 5)
    static let hasBody = NotificationRecordFlags(rawValue: 1 << 6)
    static let hasThreadIdentifier = NotificationRecordFlags(rawValue: 1 << 7)
    static let hasCategoryIdentifier = NotificationRecordFlags(rawValue: 1 << 8)
    static let hasTargetContentIdentifier = NotificationRecordFlags(rawValue: 1 << 9)
    static let hasInterruptionLevel = NotificationRecordFlags(rawValue: 1 << 10)
    static let hasRelevanceScore = NotificationRecordFlags(rawValue: 1 << 11)
    static let hasBadge = NotificationRecordFlags(rawValue: 1 << 12)
    static let hasFilterCriteria = NotificationRecordFlags(rawValue: 1 << 13)
    static let hasSound = NotificationRecordFlags(rawValue: 1 << 14)
    static let hasAttachments = NotificationRecordFlags(rawValue: 1 << 15)
    static let hasUserInfo = NotificationRecordFlags(rawValue: 1 << 16)
    static let hasCommunication = NotificationRecordFlags(rawValue: 1 << 17)
    // The delivery's members.
    static let hasDeliverAt = NotificationRecordFlags(rawValue: 1 << 18)
    static let playsSound = NotificationRecordFlags(rawValue: 1 << 19)
    static let lightsScreen = NotificationRecordFlags(rawValue: 1 << 20)
    static let breaksThroughFocus = NotificationRecordFlags(rawValue: 1 << 21)
    static let breaksThroughSummary = NotificationRecordFlags(rawValue: 1 << 22)
    static let bypassesRinger = NotificationRecordFlags(rawValue: 1 << 23)
    static let announce = NotificationRecordFlags(rawValue: 1 << 24)
    static let hasAppVerifiedBy = NotificationRecordFlags(rawValue: 1 << 25)
    // The communication's members, when it has one.
    static let hasConversationIdentifier = NotificationRecordFlags(rawValue: 1 << 26)
    static let hasSender = NotificationRecordFlags(rawValue: 1 << 27)
    static let isGroup = NotificationRecordFlags(rawValue: 1 << 28)
    static let hasAvatar = NotificationRecordFlags(rawValue: 1 << 29)
    static let mentionsCurrentUser = NotificationRecordFlags(rawValue: 1 << 30)
    static let isReplyToCurrentUser = NotificationRecordFlags(rawValue: 1 << 31)

    /// Every bit this build knows; a record with another is refused as damaged.
    static let known = NotificationRecordFlags(rawValue: (1 << 32) - 1)
}

/// How a notification is laid out in a snapshot's record chunks: the numbers that stand
/// for enum cases, and the sizes. Strings, dates, people and the rarely set members (a
/// client's JSON, an avatar, actions) are laid out as in ``InteractionRecordLayout``.
enum NotificationRecordLayout {
    // The numbers of enum cases, by position. Snapshots depend on them: only append.
    // A test checks that each table holds every case once.
    static let states: [NotificationState] = [.delivered, .scheduled, .snoozed]
    static let presentations: [Presentation] = [.alert, .quiet, .summary]
    static let interruptionLevels: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]
    static let intentTypes: [IntentType] = [.sendMessage, .startCall]
    static let categoryOptions: [NotificationCategoryOption] = [
        .customDismissAction, .allowAnnouncement, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle,
    ]
    static let silencedCauses: [SilencedCause] = [
        .timeSensitiveNotAllowed, .notifyAnywayIgnored, .repeatedCallFromAnotherApp, .appSilenced, .senderSilenced,
    ]
    static let reasonCodes: [DeliveryReasonCode] = [
        .timeSensitiveNotPermitted, .passive, .criticalBreaksThroughFocus, .timeSensitiveAllowedByFocus, .appAllowedByFocus,
        .senderAllowedByFocus, .repeatedCall, .notifiedAnyway, .mentionAllowedByFocus, .silencedByFocus,
        .communicationBreaksThroughSummary, .timeSensitiveBreaksThroughSummary, .criticalBreaksThroughSummary, .heldForSummary,
        .delivered, .unknownCategory, .snoozeEnded, .notSilencedByFocus, .restored, .conversationMuted, .priorityConversation,
        .cooledDown,
    ]

    /// Notifications per chunk: a full list of 100,000 is 25 chunks, decoded on every core
    /// at once. The fuzz build (`Fuzz/build.sh`) cuts chunks of two, so that the snapshot
    /// target's inputs, at most 64 KiB, reach several chunks.
    #if HERALD_FUZZ
    static let chunkSize = 2
    #else
    static let chunkSize = 4096
    #endif

    /// The fewest bytes the reader accepts as a record: uid, app, flags, an empty
    /// identifier, the state, the presentation and the number of its reasons' list a byte
    /// each, the time received eight. Bounds what a chunk's byte count lets the decoder reserve.
    static let minimumRecordSize = 15
}
