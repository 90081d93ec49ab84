import HeraldCore
import HeraldProtocol

/// Each uid's burst cooldown window, for the uids whose person set one other than the
/// default: `{cooldowns: [{seconds, uid}]}`. The bursts under way are not kept: after a
/// restart a conversation alerts once more, at most.
enum CooldownsSection: JSONSnapshotSection {
    static let name = "cooldowns"
    static let since: UInt32 = 5

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("cooldowns", state.storedCooldowns) { cooldown, style in
            var members = RecordMembers(style, capacity: 2)
            members.add("seconds", cooldown.seconds)
            members.add("uid", cooldown.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let cooldowns = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("cooldowns") { cooldown throws(RecordDamage) in
                (uid: try cooldown.integer("uid", as: UInt32.self), seconds: try cooldown.integer("seconds", as: Int.self))
            }
        }
        guard state.restoreCooldowns(cooldowns) else {
            throw damaged("lists a uid twice, or a window that is not from 0 to 600 seconds.")
        }
    }
}
