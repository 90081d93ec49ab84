import HeraldCore
import HeraldProtocol

/// The conversations each uid's current Focus activation silenced, for
/// `notifyRecipientAnyway`: `{activation, conversations: [{activation?, app,
/// conversationIdentifier, uid}]}`. Since format 4 each mark names its activation (uids
/// have Focuses of their own); a mark without one belongs to the section's `activation`.
enum SilencedSection: JSONSnapshotSection {
    static let name = "silenced"
    static let since: UInt32 = 2

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        let silenced = state.storedSilencedMarks
        var form = RecordMembers(style, capacity: 2)
        form.add("activation", silenced.activation)
        form.add("conversations", silenced.marks) { mark, style in
            var members = RecordMembers(style, capacity: 4)
            members.add("activation", mark.activation)
            members.add("app", mark.app)
            members.add("conversationIdentifier", mark.conversationIdentifier)
            members.add("uid", mark.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let (activation, marks) = try reading { () throws(RecordDamage) in
            let form = try RecordReader(json)
            let marks = try form.records("conversations") { mark throws(RecordDamage) in
                HeraldState.SilencedMark(
                    uid: try mark.integer("uid"),
                    app: try mark.string("app"),
                    conversationIdentifier: try mark.string("conversationIdentifier"),
                    activation: try mark.optionalInteger("activation")
                )
            }
            return (try form.integer("activation", as: UInt64.self), marks)
        }
        guard state.restoreSilencedMarks(activation: activation, marks: marks) else {
            throw damaged("marks a conversation twice, or one uid's marks name two activations.")
        }
    }
}
