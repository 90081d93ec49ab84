import Glibc
import HeraldClient
import Histogram

/// One connection's closed loop in a load run: keeps `inFlight` request lines outstanding
/// on a ``HeraldPollConnection``, checks each answer line, and records its latency.
///
/// Runs on a thread of its own, the connection waiting in `read` (nothing else is there to
/// poll). The lines are rendered from the scenario's template and their answers matched
/// by id without reading the results, but every `fullParseEvery`th, so the generator costs
/// little and is never what is being measured (docs/performance.md, "The load generator's
/// own cost"). The new lines the answers of one read make room for go out in one write.
final class ClosedLoop: @unchecked Sendable {
    /// When to stop sending.
    enum Stop: Sendable {
        /// At this monotonic time.
        case at(UInt64)
        /// After this many lines.
        case afterLines(UInt64)
    }

    /// What the loop saw; read after its thread has finished.
    struct Outcome: Sendable {
        /// Lines answered correctly inside the measurement window.
        var measuredLines: UInt64 = 0
        /// Every line answered, warm-up and drain included.
        var answeredLines: UInt64 = 0
        var answeredBytes: UInt64 = 0
        var errors: UInt64 = 0
        var errorSamples: [String] = []
        var fullyParsed: UInt64 = 0
        var lastAnswer: UInt64 = 0
        /// Nanoseconds per line, request rendered to answer handled.
        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1,
            highestTrackableValue: 120_000_000_000,
            numberOfSignificantValueDigits: .three
        )

        /// Adds `other`'s figures, keeping at most five error samples.
        mutating func add(_ other: Outcome) {
            measuredLines += other.measuredLines
            answeredLines += other.answeredLines
            answeredBytes += other.answeredBytes
            errors += other.errors
            errorSamples += other.errorSamples.prefix(max(0, 5 - errorSamples.count))
            fullyParsed += other.fullyParsed
            lastAnswer = max(lastAnswer, other.lastAnswer)
            latency.add(other.latency)
        }
    }

    private let index: Int
    private let connection: HeraldPollConnection
    private let scenario: Scenario
    private let inFlight: Int
    private let measureFrom: UInt64
    private let measureUntil: UInt64
    private let stop: Stop
    private let fullParseEvery: UInt64
    private(set) var outcome = Outcome()

    init(
        index: Int,
        connection: HeraldPollConnection,
        scenario: Scenario,
        inFlight: Int,
        measureFrom: UInt64,
        measureUntil: UInt64,
        stop: Stop,
        fullParseEvery: UInt64
    ) {
        self.index = index
        self.connection = connection
        self.scenario = scenario
        self.inFlight = max(1, inFlight)
        self.measureFrom = measureFrom
        self.measureUntil = measureUntil
        self.stop = stop
        self.fullParseEvery = max(1, fullParseEvery)
    }

    func run() {
        let template = scenario.requestTemplate(connection: index)
        let perLine = scenario.requestsPerLine
        let batch = perLine > 1
        let inFlight = UInt64(self.inFlight)
        let (measureFrom, measureUntil, stop, fullParseEvery) = (self.measureFrom, self.measureUntil, self.stop, self.fullParseEvery)
        // The loop's state is this function's own, not the object's: read and changed for
        // every answer, it costs no exclusivity check (docs/performance.md).
        var outcome = Outcome()
        var sendTimes = [UInt64](repeating: 0, count: Int(inFlight))
        var sent: UInt64 = 0
        defer {
            connection.close()
            self.outcome = outcome
        }

        func mayStillSend(_ now: UInt64) -> Bool {
            switch stop {
            case .at(let deadline): return now < deadline
            case .afterLines(let lines): return sent < lines
            }
        }
        /// Queues the next line; the connection gives its ids (the line's number times its
        /// requests, plus one), which also place its send time.
        func sendLine(at now: UInt64) throws(HeraldError) {
            let line = sent
            try connection.sendRendered(count: perLine, decoding: line % fullParseEvery == 0) { firstID, output in
                if batch { output.append(UInt8(ascii: "[")) }
                for element in 0..<perLine {
                    if element > 0 { output.append(UInt8(ascii: ",")) }
                    let item = line * UInt64(perLine) + UInt64(element)
                    template.render(id: UInt64(firstID + element), key: scenario.key(sequence: item), into: &output)
                }
                if batch { output.append(UInt8(ascii: "]")) }
            }
            sendTimes[Int(line % inFlight)] = now
            sent += 1
        }
        func fail(_ reason: String) {
            outcome.errors += 1
            if outcome.errorSamples.count < 5 { outcome.errorSamples.append("connection \(index): \(reason)") }
        }

        do {
            let now = MonotonicClock.now
            while sent < inFlight && mayStillSend(now) { try sendLine(at: now) }
            while connection.answersWaiting > 0 {
                // The clock is read once per read, at its first answer: the lines of one
                // read arrived together.
                var readAt: UInt64 = 0
                try connection.handle(Int16(POLLIN | POLLOUT)) { answer in
                    if readAt == 0 { readAt = MonotonicClock.now }
                    let now = readAt
                    let line = UInt64((answer.firstID - 1) / perLine)
                    let answered: Bool
                    if let error = answer.error {
                        fail("line \(line): \(error)")
                        answered = false
                    } else {
                        answered = true
                    }
                    if answer.parsed != nil { outcome.fullyParsed += 1 }
                    let sentAt = sendTimes[Int(line % inFlight)]
                    // Only correct answers count: a server that fails fast must not look fast.
                    if answered && sentAt >= measureFrom && now <= measureUntil {
                        outcome.measuredLines += 1
                        _ = outcome.latency.record(now - sentAt)
                    }
                    outcome.answeredBytes += UInt64(answer.bytes + 1)
                    outcome.answeredLines += 1
                    outcome.lastAnswer = now
                    if mayStillSend(now) { try sendLine(at: now) }
                }
            }
        } catch {
            fail("\(error)")
        }
    }
}
