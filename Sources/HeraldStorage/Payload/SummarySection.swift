import HeraldCore
import HeraldProtocol

/// Format 2 and 3: the host's scheduled summary, the apps it holds and its times of day:
/// `{apps, times}`. Retired in format 4, where each uid has its own (``SummariesSection``):
/// read from older snapshots and given to every uid with interactions or notifications.
enum SummarySection: JSONSnapshotSection {
    static let name = "summary"
    static let since: UInt32 = 2
    static let retiredIn: UInt32? = 4

    /// Never written (the section is retired).
    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 2)
        members.add("apps", [String]())
        members.add("times", JSONValue.array([]))
        return members.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let (apps, times) = try reading { () throws(RecordDamage) in
            let form = try RecordReader(json)
            return (try form.strings("apps"), try form.records("times", readTime))
        }
        guard state.restoreHostSummary(apps: apps, times: times) else {
            throw damaged("lists an app or a time twice, its times out of order, or a time that is not a time of day.")
        }
    }

    /// A time of day, `{hour, minute, second?}`: `second` is written only when it is not 0
    /// (`set-summary` takes `HH:MM:SS` too), so a schedule of whole minutes reads as it did
    /// before seconds.
    static func timeJSON(_ time: (hour: Int, minute: Int, second: Int), _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 3)
        members.add("hour", time.hour)
        members.add("minute", time.minute)
        members.add("second", time.second == 0 ? nil : time.second)
        return members.value
    }

    static func readTime(_ time: RecordReader) throws(RecordDamage) -> (hour: Int, minute: Int, second: Int) {
        (try time.integer("hour"), try time.integer("minute"), try time.optionalInteger("second") ?? 0)
    }
}
