import FoundationEssentials

/// `search-notifications`: the caller's notifications that have the words asked for, in
/// their text, sender, conversation or app's name, newest first, a page at a time.
package enum SearchNotificationsMethod: HeraldMethod {
    package static let name = "search-notifications"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "25bdf4b79e1b4c9bb819fa558210c14a", error: "c42da45d31e84d3d8784749efd09863a")
    /// A search reads the whole index of a uid's list (up to `--max-notifications`), a
    /// millisecond or more: on the event loop, every other connection of that loop would wait.
    package static let placement = MethodPlacement.thread
    package typealias Params = SearchNotificationsParams
    package typealias Result = ListNotificationsResult
}

package struct SearchNotificationsParams: Codable, Sendable, Hashable {
    /// The words to find, each as the start of a word (`din` finds "Dinner"); every one must be found.
    package var query: String
    /// Only this app's notifications; every app's without it.
    package var app: String?
    /// Only the notifications in this state; both without it.
    package var state: NotificationState?
    /// Only those received at or after this time.
    package var since: Date?
    /// Only those received before this time.
    package var until: Date?
    /// At most this many on the page (default 50, at most 500).
    package var limit: Int?
    /// The `nextCursor` of the page before: this page starts after it.
    package var cursor: String?
    /// Administrators only: another uid's notifications.
    package var uid: UInt32?

    package init(
        query: String, app: String? = nil, state: NotificationState? = nil, since: Date? = nil, until: Date? = nil,
        limit: Int? = nil, cursor: String? = nil, uid: UInt32? = nil
    ) {
        self.query = query
        self.app = app
        self.state = state
        self.since = since
        self.until = until
        self.limit = limit
        self.cursor = cursor
        self.uid = uid
    }
}

extension SearchNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SearchNotificationsParams(
                query: try members.required("query"),
                app: try members.optional("app"),
                state: try members.optional("state"),
                since: try members.optional("since"),
                until: try members.optional("until"),
                limit: try members.optional("limit"),
                cursor: try members.optional("cursor"),
                uid: try members.optional("uid")
            )
        }
    }
}
