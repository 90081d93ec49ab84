import HeraldCore

/// The conversations each uid's current Focus activation silenced, for
/// `notifyRecipientAnyway`. Since format 4 each mark names its activation (uids have
/// Focuses of their own); a mark without one belongs to the section's `activation`.
enum SilencedSection: JSONSnapshotSection {
    static let name = "silenced"
    static let since: UInt32 = 2

    struct Form: Codable {
        struct Conversation: Codable {
            var uid: UInt32
            var app: String
            var conversationIdentifier: String
            var activation: UInt64?
        }

        var activation: UInt64
        var conversations: [Conversation]
    }

    static func form(of state: HeraldState) -> Form {
        let silenced = state.storedSilencedMarks
        return Form(
            activation: silenced.activation,
            conversations: silenced.marks.map { .init(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier, activation: $0.activation) }
        )
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        let marks = form.conversations.map {
            HeraldState.SilencedMark(uid: $0.uid, app: $0.app, conversationIdentifier: $0.conversationIdentifier, activation: $0.activation)
        }
        guard state.restoreSilencedMarks(activation: form.activation, marks: marks) else {
            throw damaged("marks a conversation twice, or one uid's marks name two activations.")
        }
    }
}
