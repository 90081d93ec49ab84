import FoundationEssentials

/// `list-conversations`: the conversations the person muted or marked priority, by app
/// then conversation, a page at a time. An administrator may name another `uid`.
package enum ListConversationsMethod: HeraldMethod {
    package static let name = "list-conversations"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "d95f77f068f64446848badeec33a31ab", error: "b121640fe5434338a8f64ff82f182256")
    package typealias Params = ListConversationsParams
    package typealias Result = ListConversationsResult
}

package struct ListConversationsParams: Codable, Sendable, Hashable {
    /// Only this app's conversations.
    package var app: String?
    /// At most this many (each page is also bounded by `--max-response-bytes`).
    package var limit: Int?
    /// The `nextCursor` of the page before.
    package var cursor: String?
    /// Administrators only: another uid's conversations.
    package var uid: UInt32?

    package init(app: String? = nil, limit: Int? = nil, cursor: String? = nil, uid: UInt32? = nil) {
        self.app = app
        self.limit = limit
        self.cursor = cursor
        self.uid = uid
    }
}

extension ListConversationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ListConversationsParams(
                app: try members.optional("app"),
                limit: try members.optional("limit"),
                cursor: try members.optional("cursor"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct ListConversationsResult: Codable, Sendable, Hashable {
    package var uid: UInt32
    /// Sorted by app, then conversation; a mute that has ended is not shown.
    package var conversations: [ConversationControl]
    /// Present when more are left than this page holds: the `cursor` of the next.
    package var nextCursor: String?

    package init(uid: UInt32, conversations: [ConversationControl], nextCursor: String? = nil) {
        self.uid = uid
        self.conversations = conversations
        self.nextCursor = nextCursor
    }
}
