import HeraldCore

/// The scheduled summary: the apps it holds and its times of day.
enum SummarySection: JSONSnapshotSection {
    static let name = "summary"
    static let since: UInt32 = 2

    struct Form: Codable {
        struct Time: Codable {
            var hour: Int
            var minute: Int
        }

        var apps: [String]
        var times: [Time]
    }

    static func form(of state: HeraldState) -> Form {
        let summary = state.storedSummary
        return Form(apps: summary.apps, times: summary.times.map { Form.Time(hour: $0.hour, minute: $0.minute) })
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        guard state.restoreSummary(apps: form.apps, times: form.times.map { ($0.hour, $0.minute) }) else {
            throw damaged("lists an app or a time twice, its times out of order, or a time that is not a time of day.")
        }
    }
}
