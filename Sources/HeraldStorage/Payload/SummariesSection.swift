import HeraldCore

/// Each uid's scheduled summary: the apps it holds and its times of day.
enum SummariesSection: JSONSnapshotSection {
    static let name = "summaries"
    static let since: UInt32 = 4

    struct Form: Codable {
        struct Summary: Codable {
            var uid: UInt32
            var apps: [String]
            var times: [SummarySection.Form.Time]
        }

        var summaries: [Summary]
    }

    static func form(of state: HeraldState) -> Form {
        Form(
            summaries: state.storedSummaries.map { summary in
                Form.Summary(
                    uid: summary.uid, apps: summary.apps,
                    times: summary.times.map { .init(hour: $0.hour, minute: $0.minute, second: $0.second == 0 ? nil : $0.second) }
                )
            }
        )
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        for summary in form.summaries {
            guard state.restoreSummary(uid: summary.uid, apps: summary.apps, times: summary.times.map { ($0.hour, $0.minute, $0.second ?? 0) }) else {
                throw damaged("lists a uid twice, or an app or a time twice, its times out of order, or a time that is not a time of day.")
            }
        }
    }
}
