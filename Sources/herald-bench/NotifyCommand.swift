import ArgumentParser
import Foundation
import HeraldBus
import Synchronization

/// `herald-bench notify`: an app's `Notify` calls on the person's bus, and when the
/// renderer receives and answers each — through Herald's gateway (the renderer on a
/// private bus of Herald's) or directly (the renderer on the person's bus). A monitor of
/// the renderer's bus sees each `Notify` the renderer is sent and the renderer's answer
/// to it, in this same process, on the same clock as the sends: the latency is from the
/// app's call to the renderer's `Notify` on its bus (the path's own), and to the
/// renderer's answer (its reply to whoever called it, the app or Herald: the renderer's
/// drawing and queue included).
///
/// Paced (`--rate`): sent at a fixed rate whatever the answers, the latency at that rate.
/// Unpaced: sent as fast as `--in-flight` unanswered calls allow, the rate the renderer
/// answers notifications at, first sent to last answered, and how many it never answered.
///
/// Beside (`--beside-path` with its own buses, paced only): a second path measured in the
/// same run, its sends interleaved with the first's half an interval apart, so that both
/// meet the same moments of a busy machine. Each path's figures are its own line, naming
/// the other: a difference between them is the paths', not the machine's.
struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Time an app's Notify calls until the renderer is sent them, through Herald or directly."
    )

    @Option(help: "The bus the app calls org.freedesktop.Notifications on.")
    var appBus: String

    @Option(help: "The bus the renderer owns org.freedesktop.Notifications on (the app's bus, directly).")
    var rendererBus: String

    @Option(help: "A label for the path measured: herald or direct.")
    var path: String

    @Option(help: "A second path measured in the same run, interleaved with the first (paced only): its label.")
    var besidePath: String?

    @Option(help: "The second path's app bus.")
    var besideAppBus: String?

    @Option(help: "The second path's renderer bus.")
    var besideRendererBus: String?

    @Option(help: "A label for the renderer.")
    var renderer = "dunst"

    @Option(help: "Notifications a second, paced (each path's, beside another); without it, as fast as --in-flight allows.")
    var rate: Double?

    @Option(help: "Unanswered calls at most, unpaced.")
    var inFlight = 64

    @Option(help: "Notifications measured (each path's).")
    var count = 1_000

    @Option(help: "Notifications sent first and not counted (first-use costs).")
    var warmup = 20

    @Option(help: "Seconds to wait for the rest once none has arrived for that long.")
    var drain = 10.0

    func validate() throws {
        let beside = [besidePath, besideAppBus, besideRendererBus].compactMap { $0 }
        guard beside.isEmpty || beside.count == 3 else {
            throw ValidationError("--beside-path, --beside-app-bus and --beside-renderer-bus go together")
        }
        guard beside.isEmpty || rate != nil else {
            throw ValidationError("a path beside another is measured paced only: give --rate")
        }
    }

    func run() throws {
        let total = warmup + count
        var paths = [try MeasuredPath(label: path, appBus: appBus, rendererBus: rendererBus, total: total)]
        if let besidePath, let besideAppBus, let besideRendererBus {
            paths.append(try MeasuredPath(label: besidePath, appBus: besideAppBus, rendererBus: besideRendererBus, total: total))
        }

        let start = MonotonicClock.now
        for index in 0..<total {
            for (turn, measured) in paths.enumerated() {
                if let rate {
                    let due = (Double(index) + Double(turn) / Double(paths.count)) * 1e9 / rate
                    try Self.pump(paths, until: start + UInt64(due))
                } else {
                    while measured.outstanding >= inFlight { try Self.pump(paths, until: nil) }
                }
                try measured.send(index)
            }
        }
        let answersBy = MonotonicClock.now + 60_000_000_000
        while paths.contains(where: { $0.outstanding > 0 }), MonotonicClock.now < answersBy {
            try Self.pump(paths, until: min(answersBy, MonotonicClock.now + 200_000_000))
        }

        // The rest: until all have arrived, or none has for `drain` seconds.
        func seen() -> Int { paths.reduce(0) { $0 + $1.watch.seen } }
        var lastSeen = seen()
        var quietSince = MonotonicClock.now
        while lastSeen < total * paths.count, MonotonicClock.now - quietSince < UInt64(drain * 1e9) {
            Thread.sleep(forTimeInterval: 0.05)
            if seen() != lastSeen {
                lastSeen = seen()
                quietSince = MonotonicClock.now
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for measured in paths {
            let beside = paths.count > 1 ? paths.first { $0 !== measured }?.label : nil
            let figures = figures(of: measured, beside: beside)
            print(String(decoding: try encoder.encode(figures), as: UTF8.self))
            FileHandle.standardError.write(Data((figures.summary + "\n").utf8))
        }
    }

    private func figures(of measured: MeasuredPath, beside: String?) -> NotifyFigures {
        let (routed, answered) = measured.watch.stop()
        let sentAt = measured.sentAt
        let counted = warmup..<(warmup + count)
        let toRenderer = Self.microseconds(counted.compactMap { index in routed[index].map { $0 &- sentAt[index] } })
        let toAnswer = Self.microseconds(counted.compactMap { index in answered[index].map { $0 &- sentAt[index] } })
        let last = counted.compactMap { answered[$0] }.max() ?? 0
        let first = sentAt[warmup]
        return NotifyFigures(
            path: measured.label, renderer: renderer, offeredPerSecond: rate, inFlight: rate == nil ? inFlight : nil, beside: beside,
            sent: count, errors: measured.errors, errorSample: measured.errorSample, received: toAnswer.count,
            lost: count - toAnswer.count,
            p50Us: Self.percentile(toRenderer, 0.5), p99Us: Self.percentile(toRenderer, 0.99), maxUs: toRenderer.last ?? 0,
            answeredP50Us: Self.percentile(toAnswer, 0.5), answeredP99Us: Self.percentile(toAnswer, 0.99),
            passedPerSecond: last > first ? Double(toAnswer.count) * 1e9 / Double(last - first) : 0
        )
    }

    /// Nanosecond spans as microseconds, sorted.
    private static func microseconds(_ spans: [UInt64]) -> [Double] {
        spans.map { Double($0) / 1000 }.sorted()
    }

    /// The `p` quantile of sorted `values`; 0 for none.
    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        values.isEmpty ? 0 : values[min(values.count - 1, max(0, Int((Double(values.count) * p).rounded(.up)) - 1))]
    }

    /// Dispatches every path's answers until `deadline` (nil: until something arrived).
    private static func pump(_ paths: [MeasuredPath], until deadline: UInt64?) throws {
        repeat {
            let now = MonotonicClock.now
            if let deadline, now >= deadline { return }
            var descriptors = paths.map { pollfd(fd: $0.app.fileDescriptor, events: $0.app.pollEvents, revents: 0) }
            var milliseconds: Int32 = 200
            if let deadline {
                let left = deadline - now
                if left < 1_000_000 {
                    // Under a millisecond, which poll cannot wait: the rest asleep.
                    var rest = timespec(tv_sec: 0, tv_nsec: Int(left))
                    nanosleep(&rest, nil)
                    for measured in paths { try measured.app.processPending() }
                    return
                }
                milliseconds = Int32(min(200, left / 1_000_000))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            for measured in paths { try measured.app.processPending() }
        } while deadline != nil
    }
}

/// One path measured: the app's connection to its bus, the watch on its renderer's bus,
/// and when each of its notifications was sent. Its texts carry a tag of its own, so that
/// two paths' notifications never count for each other.
private final class MeasuredPath {
    let label: String
    let tag = String(UInt32.random(in: 100_000...999_999))
    let app: SessionBus
    let watch: RendererWatch
    private(set) var sentAt: [UInt64]
    private(set) var outstanding = 0
    private(set) var errors = 0
    private(set) var errorSample: String?

    init(label: String, appBus: String, rendererBus: String, total: Int) throws {
        self.label = label
        watch = RendererWatch(count: total)
        try watch.start(address: rendererBus, tag: tag)
        app = try SessionBus(address: appBus)
        sentAt = Array(repeating: 0, count: total)
    }

    func send(_ index: Int) throws {
        let message = try app.methodCall(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify"
        )
        let token = "hb\(tag)n\(index)"
        try message.append("org.example.bench")
        try message.append(UInt32(0))
        try message.append("")
        try message.append("Build \(token)")
        try message.append("Step \(token) finished")
        try message.append([String]())
        try message.append([(key: String, value: BusValue)]())
        try message.append(Int32(-1))
        outstanding += 1
        sentAt[index] = MonotonicClock.now
        try app.callAsync(message) { [self] answer in
            outstanding -= 1
            if case .failure(let error) = answer {
                errors += 1
                errorSample = errorSample ?? error.description
            }
        }
    }
}

/// A monitor of the renderer's bus on a thread of its own, noting when the renderer
/// answers each measured notification's `Notify`: when it has taken it.
private final class RendererWatch: Sendable {
    private let arrivals: Mutex<Arrivals>
    private let watching = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    init(count: Int) { arrivals = Mutex(Arrivals(count: count)) }

    /// How many have arrived so far.
    var seen: Int { arrivals.withLock { $0.seen } }

    /// Starts watching; returns once the monitor is in place, so nothing sent after is missed.
    func start(address: String, tag: String) throws {
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<BusError?>(nil)
        Thread { [self] in
            defer { finished.signal() }
            let monitor: BusMonitor
            do throws(BusError) {
                monitor = try BusMonitor(
                    address: address,
                    rules: ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'", "type='method_return'", "type='error'"]
                )
            } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            ready.signal()
            // A call's sender and serial, until the renderer answers it.
            var unanswered: [String: Int] = [:]
            while watching.load(ordering: .relaxed) {
                guard let message = try? monitor.next(timeout: .milliseconds(200)) else { continue }
                let now = MonotonicClock.now
                if let replyCookie = message.replyCookie {
                    guard let destination = message.destination,
                        let index = unanswered.removeValue(forKey: "\(destination) \(replyCookie)")
                    else { continue }
                    arrivals.withLock { $0.answered(index, at: now) }
                } else if let index = Self.index(in: message, tag: tag), let sender = message.sender {
                    unanswered["\(sender) \(message.cookie)"] = index
                    arrivals.withLock { $0.routed(index, at: now) }
                }
            }
        }.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Stops watching; when each reached the renderer's bus and when the renderer answered
    /// it (nil: never).
    func stop() -> (routed: [UInt64?], answered: [UInt64?]) {
        watching.store(false, ordering: .relaxed)
        finished.wait()
        return arrivals.withLock { ($0.routed, $0.answered) }
    }

    /// The notification's index from the token in any of its texts.
    private static func index(in message: BusMessage, tag: String) -> Int? {
        guard message.member == "Notify", let appName = try? message.readString(), (try? message.readUInt32()) != nil,
            let icon = try? message.readString(), let summary = try? message.readString(), let body = try? message.readString()
        else { return nil }
        for text in [summary, body, appName, icon] {
            guard let marker = text.range(of: "hb\(tag)n") else { continue }
            return Int(text[marker.upperBound...].prefix { $0.isASCII && $0.isNumber })
        }
        return nil
    }
}

/// When each notification's Notify reached the renderer's bus, and when the renderer
/// answered it: first sight only.
private struct Arrivals: ~Copyable {
    var routed: [UInt64?]
    var answered: [UInt64?]
    /// How many were answered.
    var seen = 0

    init(count: Int) {
        routed = Array(repeating: nil, count: count)
        answered = routed
    }

    mutating func routed(_ index: Int, at time: UInt64) {
        guard index < routed.count, routed[index] == nil else { return }
        routed[index] = time
    }

    mutating func answered(_ index: Int, at time: UInt64) {
        guard index < answered.count, answered[index] == nil else { return }
        answered[index] = time
        seen += 1
    }
}

/// One `herald-bench notify` run, as a JSON line for `report`.
struct NotifyFigures: Codable, Sendable {
    var kind = "notify"
    /// `herald` (through the gateway) or `direct`.
    var path: String
    var renderer: String
    /// Paced runs: notifications a second sent; nil for an unpaced run.
    var offeredPerSecond: Double?
    /// Unpaced runs: unanswered calls at most.
    var inFlight: Int?
    /// The path measured in the same run, interleaved with this one; nil when alone.
    var beside: String?
    var sent: Int
    /// Notify calls answered with an error.
    var errors: Int
    var errorSample: String?
    var received: Int
    var lost: Int
    /// From the app's Notify to the renderer's Notify reaching the renderer's bus (the bus
    /// daemon routing it to the renderer), in microseconds.
    var p50Us: Double
    var p99Us: Double
    var maxUs: Double
    /// From the app's Notify to the renderer's answer to the Notify it was sent: the
    /// renderer's own time (drawing, its queue) included.
    var answeredP50Us: Double
    var answeredP99Us: Double
    /// Received over the time from the first measured send to the renderer's last answer.
    var passedPerSecond: Double

    var summary: String {
        let pace = offeredPerSecond.map { "\(Int($0))/s" } ?? "unpaced ×\(inFlight ?? 0)"
        return "notify \(path) → \(renderer), \(pace): \(received)/\(sent) received (\(lost) lost, \(errors) errors), "
            + "to the renderer p50 \(Int(p50Us.rounded())) µs, p99 \(Int(p99Us.rounded())) µs, max \(Int(maxUs.rounded())) µs; "
            + "answered p50 \(Int(answeredP50Us.rounded())) µs, p99 \(Int(answeredP99Us.rounded())) µs; "
            + "\(Int(passedPerSecond.rounded()))/s passed" + (errorSample.map { "\n  " + $0 } ?? "")
    }
}
