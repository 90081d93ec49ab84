import Glibc
import Histogram

/// One connection of a load run: a closed loop that keeps `inFlight` request lines
/// outstanding, checks each response line, and records its latency.
///
/// Runs on a thread of its own with blocking I/O. Each batch of responses that arrives in
/// one read is answered by one write holding as many new lines.
final class LoadConnection: @unchecked Sendable {
    /// When to stop sending.
    enum Stop: Sendable {
        /// At this monotonic time.
        case at(UInt64)
        /// After this many lines.
        case afterLines(UInt64)
    }

    /// What the connection saw; read after its thread has finished.
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
        /// Nanoseconds per line, request written to response read.
        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1,
            highestTrackableValue: 120_000_000_000,
            numberOfSignificantValueDigits: .three
        )
    }

    private let index: Int
    private let socket: UnixSocket
    private let scenario: Scenario
    private let inFlight: Int
    private let measureFrom: UInt64
    private let measureUntil: UInt64
    private let stop: Stop
    private let fullParseEvery: UInt64
    private(set) var outcome = Outcome()

    init(
        index: Int,
        socket: UnixSocket,
        scenario: Scenario,
        inFlight: Int,
        measureFrom: UInt64,
        measureUntil: UInt64,
        stop: Stop,
        fullParseEvery: UInt64
    ) {
        self.index = index
        self.socket = socket
        self.scenario = scenario
        self.inFlight = max(1, inFlight)
        self.measureFrom = measureFrom
        self.measureUntil = measureUntil
        self.stop = stop
        self.fullParseEvery = max(1, fullParseEvery)
    }

    /// The JSON-RPC id of this connection's `item`th request: unique across connections.
    static func requestID(connection: Int, item: UInt64) -> UInt64 {
        UInt64(connection + 1) * 1_000_000_000 + item
    }

    func run() {
        let template = scenario.requestTemplate(connection: index)
        let perLine = UInt64(scenario.requestsPerLine)
        let batch = perLine > 1
        var sendTimes = [UInt64](repeating: 0, count: inFlight)
        var sent: UInt64 = 0
        var answered: UInt64 = 0
        var output: [UInt8] = []
        output.reserveCapacity(64 * 1024)
        defer {
            outcome.answeredLines = answered
            socket.close()
        }

        func mayStillSend(_ now: UInt64) -> Bool {
            switch stop {
            case .at(let deadline): return now < deadline
            case .afterLines(let lines): return sent < lines
            }
        }
        func appendLine() {
            if batch { output.append(UInt8(ascii: "[")) }
            for element in 0..<perLine {
                if element > 0 { output.append(UInt8(ascii: ",")) }
                let item = sent * perLine + element
                template.render(
                    id: Self.requestID(connection: index, item: item),
                    key: scenario.key(sequence: item),
                    into: &output
                )
            }
            if batch { output.append(UInt8(ascii: "]")) }
            output.append(UInt8(ascii: "\n"))
            sent += 1
        }
        func flush(firstNew: UInt64) -> Bool {
            guard !output.isEmpty else { return true }
            let now = MonotonicClock.now
            for line in firstNew..<sent { sendTimes[Int(line % UInt64(inFlight))] = now }
            let written = socket.writeAll(output)
            output.removeAll(keepingCapacity: true)
            return written
        }

        while sent < UInt64(inFlight) && mayStillSend(MonotonicClock.now) { appendLine() }
        guard flush(firstNew: 0) else {
            fail("write failed: \(errnoText())")
            return
        }

        var capacity = 1 << 20
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0

        while answered < sent {
            growIfFull(&buffer, capacity: &capacity, filled: filled)
            let count = socket.read(into: buffer + filled, count: capacity - filled)
            guard count > 0 else {
                fail(count == 0 ? "the server closed the connection" : "read failed: \(errnoText())")
                return
            }
            let scanFrom = filled
            filled += count
            let now = MonotonicClock.now
            let firstNew = sent
            var lineStart = 0
            var cursor = scanFrom
            while cursor < filled, let newline = memchr(buffer + cursor, 0x0A, filled - cursor) {
                let end = buffer.distance(to: newline)
                let line = UnsafeRawBufferPointer(start: buffer + lineStart, count: end - lineStart)
                let fullParse = answered % fullParseEvery == 0
                let failure = ResponseCheck.failure(
                    line: line,
                    firstID: Self.requestID(connection: index, item: answered * perLine),
                    count: Int(perLine),
                    batch: batch,
                    fullParse: fullParse
                )
                if let failure { fail(failure) }
                if fullParse { outcome.fullyParsed += 1 }
                let sentAt = sendTimes[Int(answered % UInt64(inFlight))]
                // Only correct answers count: a server that fails fast must not look fast.
                if failure == nil && sentAt >= measureFrom && now <= measureUntil {
                    outcome.measuredLines += 1
                    _ = outcome.latency.record(now - sentAt)
                }
                outcome.answeredBytes += UInt64(end - lineStart + 1)
                answered += 1
                if mayStillSend(now) { appendLine() }
                lineStart = end + 1
                cursor = lineStart
            }
            if lineStart > 0 {
                if lineStart < filled { memmove(buffer, buffer + lineStart, filled - lineStart) }
                filled -= lineStart
            }
            outcome.lastAnswer = now
            guard flush(firstNew: firstNew) else {
                fail("write failed: \(errnoText())")
                return
            }
        }
    }

    private func fail(_ reason: String) {
        outcome.errors += 1
        if outcome.errorSamples.count < 5 { outcome.errorSamples.append("connection \(index): \(reason)") }
    }
}
