import HeraldCore
import HeraldProtocol

/// The responses waiting for their apps' next `subscribe-responses`, by (uid, app), oldest
/// first, with how many were dropped meanwhile: a response survives a restart as the
/// notification it answered would have. `{pending: [{app, dropped, responses, uid}]}`; a
/// snapshot of an earlier format has none.
enum ResponsesSection: JSONSnapshotSection {
    static let name = "responses"
    static let since: UInt32 = 4

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("pending", state.storedPendingResponses) { pending, style in
            var members = RecordMembers(style, capacity: 4)
            members.add("app", pending.app)
            members.add("dropped", pending.dropped)
            members.add("responses", pending.responses, ResponseRecord.json)
            members.add("uid", pending.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let stored = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("pending") { pending throws(RecordDamage) in
                HeraldState.StoredResponses(
                    uid: try pending.integer("uid"),
                    app: try pending.string("app"),
                    responses: try pending.records("responses", ResponseRecord.read),
                    dropped: try pending.integer("dropped")
                )
            }
        }
        guard state.restorePendingResponses(stored) else {
            throw damaged("lists a (uid, app) twice, more than 100 responses for one, or a response of another app.")
        }
    }
}
