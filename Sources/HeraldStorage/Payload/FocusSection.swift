import HeraldCore
import HeraldProtocol

/// Format 2 and 3: the host's one Focus in effect, if any, and the count of activations
/// (which "silenced by this same Focus" compares): `{activation, configuration?}`. Retired
/// in format 4, where each uid has its Focuses (``FocusesSection``): read from older
/// snapshots and given to every uid with interactions or notifications.
enum FocusSection: JSONSnapshotSection {
    static let name = "focus"
    static let since: UInt32 = 2
    static let retiredIn: UInt32? = 4

    /// Never written (the section is retired); what an old snapshot's section would say of
    /// a state without a host Focus.
    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 1)
        members.add("activation", state.storedFocuses.activations)
        return members.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let (configuration, activation) = try reading { () throws(RecordDamage) in
            let form = try RecordReader(json)
            return (try form.optionalRecord("configuration", FocusRecord.read), try form.integer("activation", as: UInt64.self))
        }
        state.restoreHostFocus(configuration, activation: activation)
    }
}
