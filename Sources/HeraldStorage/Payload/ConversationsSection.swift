import HeraldCore
import HeraldProtocol

/// The conversations each uid muted or marked priority (`set-conversation`):
/// `{conversations: [{app, conversationIdentifier, mutedForever?, mutedUntil?, priority,
/// uid}]}`. A mute for a while keeps its end, even one that has passed: reads compare it
/// with now.
enum ConversationsSection: JSONSnapshotSection {
    static let name = "conversations"
    static let since: UInt32 = 5

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("conversations", state.storedConversations) { conversation, style in
            var members = RecordMembers(style, capacity: 6)
            members.add("app", conversation.app)
            members.add("conversationIdentifier", conversation.conversationIdentifier)
            members.add("mutedForever", conversation.mutedForever ? true : nil)
            members.add("mutedUntil", conversation.mutedUntil)
            members.add("priority", conversation.priority)
            members.add("uid", conversation.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let conversations = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("conversations") { conversation throws(RecordDamage) in
                HeraldState.StoredConversation(
                    uid: try conversation.integer("uid"),
                    app: try conversation.string("app"),
                    conversationIdentifier: try conversation.string("conversationIdentifier"),
                    mutedUntil: try conversation.optionalDate("mutedUntil"),
                    mutedForever: try conversation.optionalBool("mutedForever") ?? false,
                    priority: try conversation.bool("priority")
                )
            }
        }
        guard state.restoreConversations(conversations) else {
            throw damaged("lists a conversation twice, one muted both until a time and forever, or one neither muted nor priority.")
        }
    }
}
