import HeraldCore
import HeraldProtocol

/// Each uid's Focuses: its named definitions (with their schedules), the choice made by
/// hand, the Focus in effect with its activation, and the count of activations:
/// `{activations, uids: [{current?: {activation, endsAt?, name, reason, windowStart?},
/// definitions, manual?: {endsAt?, name?, origin?: {host, reason?}, until?}, nextChange?, uid}]}`.
enum FocusesSection: JSONSnapshotSection {
    static let name = "focuses"
    static let since: UInt32 = 4

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        let stored = state.storedFocuses
        var form = RecordMembers(style, capacity: 2)
        form.add("activations", stored.activations)
        form.add("uids", stored.uids) { focus, style in
            var members = RecordMembers(style, capacity: 5)
            members.add("current", focus.current.map { current in
                var members = RecordMembers(style, capacity: 5)
                members.add("activation", current.activation)
                members.add("endsAt", current.endsAt)
                members.add("name", current.name)
                members.add("reason", current.reason)
                members.add("windowStart", current.windowStart)
                return members.value
            })
            members.add("definitions", focus.definitions, FocusRecord.json)
            members.add("manual", focus.manual.map { manual in
                var members = RecordMembers(style, capacity: 4)
                members.add("endsAt", manual.endsAt)
                members.add("name", manual.name)
                members.add("origin", manual.origin.map { origin in
                    var members = RecordMembers(style, capacity: 2)
                    members.add("host", origin.host)
                    members.add("reason", origin.reason)
                    return members.value
                })
                members.add("until", manual.until)
                return members.value
            })
            members.add("nextChange", focus.nextChange)
            members.add("uid", focus.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let (activations, uids) = try reading { () throws(RecordDamage) in
            let form = try RecordReader(json)
            let uids = try form.records("uids") { focus throws(RecordDamage) in
                HeraldState.StoredFocus(
                    uid: try focus.integer("uid"),
                    definitions: try focus.records("definitions", FocusRecord.read),
                    manual: try focus.optionalRecord("manual") { manual throws(RecordDamage) in
                        .init(
                            name: try manual.optionalString("name"), until: try manual.optionalDate("until"), endsAt: try manual.optionalDate("endsAt"),
                            origin: try manual.optionalRecord("origin") { origin throws(RecordDamage) in
                                FocusOrigin(host: try origin.string("host"), reason: try origin.optionalCase("reason"))
                            })
                    },
                    current: try focus.optionalRecord("current") { current throws(RecordDamage) in
                        .init(
                            name: try current.string("name"),
                            reason: try current.enumCase("reason"),
                            endsAt: try current.optionalDate("endsAt"),
                            activation: try current.integer("activation"),
                            windowStart: try current.optionalDate("windowStart")
                        )
                    },
                    nextChange: try focus.optionalDate("nextChange")
                )
            }
            return (try form.integer("activations", as: UInt64.self), uids)
        }
        guard state.restoreFocuses(activations: activations, uids: uids) else {
            throw damaged("lists a uid or a Focus twice, a schedule that is not one, or a Focus on that is not defined.")
        }
    }
}
