import FoundationEssentials

/// `snooze-notification`: the person puts a delivered notification off for a while. It
/// leaves the delivered ones (presenters take it down) and comes back at its time, as a
/// delivery with its actions, and presenters show it again.
package enum SnoozeNotificationMethod: HeraldMethod {
    package static let name = "snooze-notification"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "405408739984406c875e38a7eac9710e", error: "7c41c2c74d554d89a91d77fcc924890c")
    package typealias Params = SnoozeNotificationParams
    package typealias Result = SnoozeNotificationResult
}

/// Exactly one of `seconds` and `until`.
package struct SnoozeNotificationParams: Codable, Sendable, Hashable {
    package var app: String
    package var identifier: String
    /// For this many seconds from now.
    package var seconds: Double?
    /// Until this time.
    package var until: Date?
    /// Administrators only: another uid's notification.
    package var uid: UInt32?

    package init(app: String, identifier: String, seconds: Double? = nil, until: Date? = nil, uid: UInt32? = nil) {
        self.app = app
        self.identifier = identifier
        self.seconds = seconds
        self.until = until
        self.uid = uid
    }
}

extension SnoozeNotificationParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SnoozeNotificationParams(
                app: try members.required("app"),
                identifier: try members.required("identifier"),
                seconds: try members.optional("seconds"),
                until: try members.optional("until"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct SnoozeNotificationResult: Codable, Sendable, Hashable {
    /// When it comes back.
    package var snoozedUntil: Date

    package init(snoozedUntil: Date) {
        self.snoozedUntil = snoozedUntil
    }
}
