import HeraldCore

/// The scheduled summary: the apps it holds and its times of day.
enum SummarySection: JSONSnapshotSection {
    static let name = "summary"
    static let since: UInt32 = 2

    struct Form: Codable {
        /// `second` is written only when it is not 0 (`set-summary` takes `HH:MM:SS` too),
        /// so a schedule of whole minutes reads as it did before seconds.
        struct Time: Codable {
            var hour: Int
            var minute: Int
            var second: Int?
        }

        var apps: [String]
        var times: [Time]
    }

    static func form(of state: HeraldState) -> Form {
        let summary = state.storedSummary
        return Form(apps: summary.apps, times: summary.times.map { Form.Time(hour: $0.hour, minute: $0.minute, second: $0.second == 0 ? nil : $0.second) })
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        guard state.restoreSummary(apps: form.apps, times: form.times.map { ($0.hour, $0.minute, $0.second ?? 0) }) else {
            throw damaged("lists an app or a time twice, its times out of order, or a time that is not a time of day.")
        }
    }
}
