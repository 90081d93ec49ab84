/// One worst case of `scripts/bench-bystander.py`: a bystander uid's `get-cooldown`, one at
/// a time, alone and while another uid repeats its worst request (issue 49's goal: under
/// 50 ms at p99, whatever the other uid does). Latencies in milliseconds.
struct BystanderFigures: Codable, Sendable {
    var kind = "bystander"
    /// The worst case: `remove-all`, `search-one-letter`, `restore-most`,
    /// `conversations-long`, `subscribe-since`.
    var `case`: String
    /// Whether the bystander ran as the attacker's uid (a run without root).
    var sameUID: Bool
    var seconds: Double
    /// The attacker's requests (each case's cycle) and their median.
    var worstRequests: Int
    var worstMedianMs: Double
    var aloneAnswered: Int
    var aloneP50Ms: Double
    var aloneP99Ms: Double
    var aloneMaxMs: Double
    /// While the attacker ran.
    var answered: Int
    var p50Ms: Double
    var p99Ms: Double
    var maxMs: Double
}
