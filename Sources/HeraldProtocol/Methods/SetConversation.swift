import FoundationEssentials

/// `set-conversation`: the person mutes one of their conversations — for a while, until a
/// time, or until unmuted — or marks it priority, or undoes either. A conversation is an
/// app's `conversationIdentifier`, as a communication notification's content names it.
package enum SetConversationMethod: HeraldMethod {
    package static let name = "set-conversation"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "73504831ebc94bf3b7f2528cafb9c933", error: "7271c319dc6542d786c914a3e51a137f")
    package typealias Params = SetConversationParams
    package typealias Result = ConversationControl
}

/// At least one of `mute`, `unmute` and `priority`; not `mute` with `unmute`.
package struct SetConversationParams: Codable, Sendable, Hashable {
    package var app: String
    package var conversationIdentifier: String
    /// Mutes the conversation (again: a new mute replaces the one before).
    package var mute: ConversationMute?
    /// `true` ends the conversation's mute.
    package var unmute: Bool?
    /// Marks the conversation priority, or not.
    package var priority: Bool?
    /// Administrators only: another uid's conversation.
    package var uid: UInt32?

    package init(
        app: String, conversationIdentifier: String, mute: ConversationMute? = nil, unmute: Bool? = nil, priority: Bool? = nil,
        uid: UInt32? = nil
    ) {
        self.app = app
        self.conversationIdentifier = conversationIdentifier
        self.mute = mute
        self.unmute = unmute
        self.priority = priority
        self.uid = uid
    }
}

/// How long a mute lasts: exactly one of `seconds`, `until` and `forever: true`.
package struct ConversationMute: Codable, Sendable, Hashable {
    /// For this many seconds from now.
    package var seconds: Double?
    /// Until this time.
    package var until: Date?
    /// Until unmuted.
    package var forever: Bool?

    package init(seconds: Double? = nil, until: Date? = nil, forever: Bool? = nil) {
        self.seconds = seconds
        self.until = until
        self.forever = forever
    }
}

extension ConversationMute: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ConversationMute(seconds: try members.optional("seconds"), until: try members.optional("until"), forever: try members.optional("forever"))
        }
    }
}

extension SetConversationParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetConversationParams(
                app: try members.required("app"),
                conversationIdentifier: try members.required("conversationIdentifier"),
                mute: try members.optional("mute"),
                unmute: try members.optional("unmute"),
                priority: try members.optional("priority"),
                uid: try members.optional("uid")
            )
        }
    }
}

/// What the person decided about one conversation: `set-conversation`'s answer and an
/// item of `list-conversations`.
package struct ConversationControl: Codable, Sendable, Hashable {
    package var app: String
    package var conversationIdentifier: String
    /// Its notifications are delivered quietly (`conversationMuted`).
    package var muted: Bool
    /// While muted for a while: when the mute ends by itself; absent when muted until
    /// unmuted, or not muted.
    package var mutedUntil: Date?
    /// It breaks through a Focus like an allowed person (`priorityConversation`).
    package var priority: Bool

    package init(app: String, conversationIdentifier: String, muted: Bool = false, mutedUntil: Date? = nil, priority: Bool = false) {
        self.app = app
        self.conversationIdentifier = conversationIdentifier
        self.muted = muted
        self.mutedUntil = mutedUntil
        self.priority = priority
    }
}
