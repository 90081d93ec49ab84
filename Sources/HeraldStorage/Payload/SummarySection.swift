import HeraldCore

/// Format 2 and 3: the host's scheduled summary, the apps it holds and its times of day.
/// Retired in format 4, where each uid has its own (``SummariesSection``): read from older
/// snapshots and given to every uid with interactions or notifications.
enum SummarySection: JSONSnapshotSection {
    static let name = "summary"
    static let since: UInt32 = 2
    static let retiredIn: UInt32? = 4

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

    /// Never written (the section is retired).
    static func form(of state: HeraldState) -> Form {
        Form(apps: [], times: [])
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        guard state.restoreHostSummary(apps: form.apps, times: form.times.map { ($0.hour, $0.minute, $0.second ?? 0) }) else {
            throw damaged("lists an app or a time twice, its times out of order, or a time that is not a time of day.")
        }
    }
}
