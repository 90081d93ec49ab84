import HeraldCore
import HeraldProtocol

/// Each uid's scheduled summary, the apps it holds and its times of day:
/// `{summaries: [{apps, times, uid}]}`, each time as ``SummarySection`` writes it.
enum SummariesSection: JSONSnapshotSection {
    static let name = "summaries"
    static let since: UInt32 = 4

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("summaries", state.storedSummaries) { summary, style in
            var members = RecordMembers(style, capacity: 3)
            members.add("apps", summary.apps)
            members.add("times", summary.times, SummarySection.timeJSON)
            members.add("uid", summary.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let summaries = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("summaries") { summary throws(RecordDamage) in
                (uid: try summary.integer("uid", as: UInt32.self), apps: try summary.strings("apps"), times: try summary.records("times", SummarySection.readTime))
            }
        }
        for summary in summaries {
            guard state.restoreSummary(uid: summary.uid, apps: summary.apps, times: summary.times) else {
                throw damaged("lists a uid twice, or an app or a time twice, its times out of order, or a time that is not a time of day.")
            }
        }
    }
}
