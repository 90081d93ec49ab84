import HeraldCore

/// The conversations the current Focus activation silenced, for `notifyRecipientAnyway`.
enum SilencedSection: JSONSnapshotSection {
    static let name = "silenced"
    static let since: UInt32 = 2

    struct Form: Codable {
        struct Conversation: Codable {
            var uid: UInt32
            var app: String
            var conversationIdentifier: String
        }

        var activation: UInt64
        var conversations: [Conversation]
    }

    static func form(of state: HeraldState) -> Form {
        let silenced = state.storedSilencedMarks
        return Form(
            activation: silenced.activation,
            conversations: silenced.marks.map { .init(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier) }
        )
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        let marks = form.conversations.map {
            HeraldState.SilencedMark(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier)
        }
        guard state.restoreSilencedMarks(activation: form.activation, marks: marks) else {
            throw damaged("marks a conversation twice.")
        }
    }
}
