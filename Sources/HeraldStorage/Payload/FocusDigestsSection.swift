import HeraldCore
import HeraldProtocol

/// What each uid's Focus silenced: the running counts of the Focus on (so a restart mid-Focus
/// loses none) and the last digest, `{last: [digest], running: [digest + activation]}`.
/// Restored after the Focuses (``FocusesSection``), whose activations the running ones name.
enum FocusDigestsSection: JSONSnapshotSection {
    static let name = "focusDigests"
    static let since: UInt32 = 5

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        let stored = state.storedFocusDigests
        var form = RecordMembers(style, capacity: 2)
        form.add("last", stored.last) { digest, style in digestJSON(digest, activation: nil, style) }
        form.add("running", stored.running) { running, style in digestJSON(running.digest, activation: running.activation, style) }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let (last, running) = try reading { () throws(RecordDamage) in
            let reader = try RecordReader(json)
            let last = try reader.records("last") { record throws(RecordDamage) in try readDigest(record) }
            let running = try reader.records("running") { record throws(RecordDamage) in
                (activation: try record.integer("activation", as: UInt64.self), digest: try readDigest(record))
            }
            return (last, running)
        }
        guard state.restoreFocusDigests(running: running, last: last) else {
            throw damaged("lists a uid twice, more entries or senders than a digest holds, or counts that do not add up.")
        }
    }

    private static func digestJSON(_ digest: FocusDigest, activation: UInt64?, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 9)
        members.add("activation", activation)
        members.add("endedAt", digest.endedAt)
        members.add("endedBy", digest.endedBy)
        members.add("entries", digest.entries) { entry, style in
            var members = RecordMembers(style, capacity: 6)
            members.add("app", entry.app)
            members.add("conversationIdentifier", entry.conversationIdentifier)
            members.add("conversationName", entry.conversationName)
            members.add("count", entry.count)
            members.add("lastAt", entry.lastAt)
            members.add("senders", entry.senders)
            return members.value
        }
        members.add("focus", digest.focus)
        members.add("startedAt", digest.startedAt)
        members.add("total", digest.total)
        members.add("uid", digest.uid)
        members.add("unlisted", digest.unlisted)
        return members.value
    }

    private static func readDigest(_ record: RecordReader) throws(RecordDamage) -> FocusDigest {
        FocusDigest(
            uid: try record.integer("uid", as: UInt32.self),
            focus: try record.string("focus"),
            startedAt: try record.optionalDate("startedAt"),
            endedAt: try record.optionalDate("endedAt"),
            endedBy: try record.optionalCase("endedBy", as: FocusDigestEnd.self),
            total: try record.integer("total", as: Int.self),
            entries: try record.records("entries") { entry throws(RecordDamage) in
                FocusDigestEntry(
                    app: try entry.string("app"),
                    conversationIdentifier: try entry.optionalString("conversationIdentifier"),
                    conversationName: try entry.optionalString("conversationName"),
                    senders: try entry.optionalStrings("senders"),
                    count: try entry.integer("count", as: Int.self),
                    lastAt: try entry.date("lastAt")
                )
            },
            unlisted: try record.integer("unlisted", as: Int.self)
        )
    }
}
