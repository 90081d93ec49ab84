import ArgumentParser
import Foundation
import HeraldClient
import Histogram

/// `herald-bench load`: N connections, P lines in flight each, for a duration or a count.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Drive a server on a Unix socket with a closed loop and print its figures as one JSON line."
    )

    @Option(help: "The server's socket.")
    var socket: String

    @Option(help: "What each request does.")
    var scenario: Scenario = .donate

    @Option(name: .customLong("connections"), help: "Connections (N).")
    var connections: Int = 1

    @Option(help: "Request lines kept in flight on each connection (P).")
    var inFlight: Int = 1

    @Option(help: ArgumentHelp("Measure for this long.", valueName: "seconds"))
    var duration: Double = 5

    @Option(help: ArgumentHelp("Run before measuring, unrecorded.", valueName: "seconds"))
    var warmup: Double = 0.5

    @Option(help: ArgumentHelp("Send this many lines per connection instead of running for a duration.", valueName: "lines"))
    var lines: UInt64?

    @Option(help: ArgumentHelp("Parse every Nth response fully; the rest are checked by scanning.", valueName: "N"))
    var fullParseEvery: UInt64 = 1024

    @Option(help: "The label of what answers: herald, floor or nio-floor.")
    var target: String = "herald"

    @Option(help: "The label of the journal setting: off, on or n/a.")
    var journal: String = "n/a"

    @Flag(help: "Read Herald's stats before and right after the run: journal entries written and dropped.")
    var stats = false

    func validate() throws {
        guard connections >= 1, inFlight >= 1 else { throw ValidationError("--connections and --in-flight are at least 1.") }
        guard duration > 0 || lines != nil else { throw ValidationError("--duration must be positive.") }
    }

    func run() throws {
        if scenario.needsPool {
            try InteractionPool.donate(socketPath: socket, count: Scenario.poolSize)
        }
        let configuration = HeraldClient.Configuration(socketPath: socket)
        let heraldd = try (0..<connections).map { _ in try HeraldPollConnection(configuration, waitsInRead: true) }
        let journalBefore = stats ? try StatsProbe.journal(socketPath: socket) : nil
        let start = MonotonicClock.now
        let measureFrom = lines == nil ? start + UInt64(warmup * 1e9) : start
        let measureUntil = lines == nil ? measureFrom + UInt64(duration * 1e9) : UInt64.max
        let stop: ClosedLoop.Stop = lines.map { .afterLines($0) } ?? .at(measureUntil)
        let loads = heraldd.enumerated().map { index, connection in
            ClosedLoop(
                index: index,
                connection: connection,
                scenario: scenario,
                inFlight: inFlight,
                measureFrom: measureFrom,
                measureUntil: measureUntil,
                stop: stop,
                fullParseEvery: fullParseEvery
            )
        }
        let finished = DispatchGroup()
        for load in loads {
            finished.enter()
            let thread = Thread {
                load.run()
                finished.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        finished.wait()
        let runSeconds = Double(MonotonicClock.now - start) / 1e9
        let journalAfter = stats ? try StatsProbe.journal(socketPath: socket) : nil
        // Then until the queue has drained: the last entry of the run is in journald when
        // the written count stops moving but for the entry of each probe's own `stats`.
        var drained: (written: UInt64, seconds: Double)?
        if let journalAfter {
            var written = journalAfter.written
            var changedAt = runSeconds
            var still = 0
            while still < 4, Double(MonotonicClock.now - start) / 1e9 < runSeconds + 60 {
                usleep(50_000)
                let now = try StatsProbe.journal(socketPath: socket).written
                if now > written + 1 {
                    changedAt = Double(MonotonicClock.now - start) / 1e9
                    still = 0
                } else {
                    still += 1
                }
                written = now
            }
            drained = (written, changedAt)
        }

        var total = ClosedLoop.Outcome()
        for load in loads { total.add(load.outcome) }
        let (latency, measured, answered, bytes) = (total.latency, total.measuredLines, total.answeredLines, total.answeredBytes)
        let last = max(start, total.lastAnswer)
        let seconds = lines == nil ? duration : Double(last - start) / 1e9
        let linesPerSecond = Double(measured) / seconds
        var figures = LoadFigures(
            target: target,
            scenario: scenario,
            journal: journal,
            connections: connections,
            inFlight: inFlight,
            requestsPerLine: scenario.requestsPerLine,
            seconds: seconds,
            requestsPerSecond: linesPerSecond * Double(scenario.requestsPerLine),
            linesPerSecond: linesPerSecond,
            p50Us: Double(latency.valueAtPercentile(50)) / 1000,
            p99Us: Double(latency.valueAtPercentile(99)) / 1000,
            p999Us: Double(latency.valueAtPercentile(99.9)) / 1000,
            maxUs: Double(latency.max) / 1000,
            meanUs: latency.mean / 1000,
            answeredLines: answered,
            errors: total.errors,
            errorSamples: total.errorSamples,
            fullyParsed: total.fullyParsed,
            responseBytes: answered > 0 ? Int((Double(bytes) / Double(answered)).rounded()) : 0
        )
        if let journalBefore, let journalAfter {
            figures.journalWritten = journalAfter.written
            figures.journalDropped = journalAfter.dropped
            figures.journalWrittenPerSecond = Double(journalAfter.written - journalBefore.written) / runSeconds
            if let drained {
                figures.journalDrainedPerSecond = Double(drained.written - journalBefore.written) / drained.seconds
                figures.journalDrainSeconds = drained.seconds - runSeconds
            }
        }
        FileHandle.standardError.write(Data((figures.summary + "\n").utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(figures), as: UTF8.self))
    }
}
