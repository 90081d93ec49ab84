/// One load run's figures, as a JSON line for `report` and as a line for people.
struct LoadFigures: Codable, Sendable {
    var kind = "load"
    /// What answered: `herald`, `floor` (bare sockets) or `nio-floor` (SwiftNIO).
    var target: String
    var scenario: Scenario
    /// `off` or `on` for Herald; `n/a` for the floor.
    var journal: String
    var connections: Int
    var inFlight: Int
    var requestsPerLine: Int
    var seconds: Double
    /// JSON-RPC requests answered per second (a batch line counts each of its requests).
    var requestsPerSecond: Double
    var linesPerSecond: Double
    /// Latency of a line, request written to response read, in microseconds.
    var p50Us: Double
    var p99Us: Double
    var p999Us: Double
    var maxUs: Double
    var meanUs: Double
    var answeredLines: UInt64
    var errors: UInt64
    var errorSamples: [String]
    var fullyParsed: UInt64
    /// The mean size of a response line, newline included: what the floor answers with.
    var responseBytes: Int
    /// Herald's `stats` right after the run: journal entries written and dropped so far.
    /// Entries still queued when the run ends are in neither.
    var journalWritten: UInt64?
    var journalDropped: UInt64?
    /// Entries the journal writer got into journald per second while the load ran (warm-up
    /// included): what Herald sustains with the journal on, whatever its queue absorbed.
    var journalWrittenPerSecond: Double?
    /// Every entry of the run per second, from its start until the last of them was in
    /// journald (the queue drained): the pipeline's sustained rate, nothing left queued.
    var journalDrainedPerSecond: Double?
    /// How long the queue took to drain after the run.
    var journalDrainSeconds: Double?
    /// The server's user and system time per request answered after the warm-up, in
    /// microseconds: added by `scripts/bench.sh`, which reads it from `/proc`.
    var cpuUsPerRequest: Double?

    var summary: String {
        let rate = Int(requestsPerSecond.rounded())
        var text =
            "\(target) \(scenario.rawValue) journal=\(journal) \(connections)x\(inFlight): "
            + "\(rate) req/s, p50 \(format(p50Us)) µs, p99 \(format(p99Us)) µs, p99.9 \(format(p999Us)) µs, "
            + "errors \(errors), response \(responseBytes) B"
        if let journalWritten, let journalDropped, let journalWrittenPerSecond {
            text += ", journal written \(journalWritten) (\(Int(journalWrittenPerSecond))/s) dropped \(journalDropped)"
            if let journalDrainedPerSecond, let journalDrainSeconds {
                text += ", \(Int(journalDrainedPerSecond))/s until drained \(String(format: "%.1f", journalDrainSeconds)) s later"
            }
        }
        for sample in errorSamples { text += "\n  " + sample }
        return text
    }

    private func format(_ value: Double) -> String {
        String(Int(value.rounded()))
    }
}
