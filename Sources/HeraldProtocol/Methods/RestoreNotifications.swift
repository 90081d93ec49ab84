import FoundationEssentials

/// `restore-notifications`: the person undoes a removal. Notifications the person removed
/// (`remove-notifications` called by a caller without a verified app identity) are kept
/// for heraldd's `--undo-window`; restored, they go back into the list as they were —
/// same identifiers, `receivedAt` and `deliveredAt` — and presenters show the delivered
/// ones again, so that their actions and responses work as before the removal.
package enum RestoreNotificationsMethod: HeraldMethod {
    package static let name = "restore-notifications"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "81e3b807ba914aebb7f24568eebf8312", error: "1b7cb4d7ff0b419a8649638331158bd2")
    package typealias Params = RestoreNotificationsParams
    package typealias Result = RestoreNotificationsResult
}

/// `app` and `identifiers` name the notifications to restore; without both, the last
/// removal (one `remove-notifications` call's worth) is undone.
package struct RestoreNotificationsParams: Codable, Sendable, Hashable {
    package var app: String?
    package var identifiers: [String]?
    /// Administrators only: another uid's removed notifications.
    package var uid: UInt32?

    /// The most identifiers one call names: as many as a uid keeps removed, so that more
    /// could never all be restorable, and a call's work under the state's lock stays small.
    package static let maximumIdentifiers = 500

    package init(app: String? = nil, identifiers: [String]? = nil, uid: UInt32? = nil) {
        self.app = app
        self.identifiers = identifiers
        self.uid = uid
    }
}

extension RestoreNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            RestoreNotificationsParams(
                app: try members.optional("app"),
                identifiers: try members.optional("identifiers"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct RestoreNotificationsResult: Codable, Sendable, Hashable {
    /// How many went back into the list; a name not restorable (never removed by the
    /// person, past the window, restored already) counts 0.
    package var restored: Int

    package init(restored: Int) {
        self.restored = restored
    }
}
