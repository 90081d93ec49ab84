import ArgumentParser
import HeraldCore
import HeraldProtocol
import HeraldServer

/// `herald-bench request-path`: a request's whole path inside heraldd — framing, the
/// envelope and params, the state's lock and rule, the response line — in one process
/// and one thread, on `make bench`'s own lines: no socket, no event loop, no second
/// thread. What the socket benchmark cannot resolve on a shared host (a few percent of
/// the user-space part) shows here, and `perf record` on it profiles nothing else. It
/// times the framing alone and the framing with the params' reading too, on the same
/// lines, so that the path's parts can be told apart.
///
/// A `donate` run first stores `--fill` donations from one uid, whose limit it is, so that
/// each timed one evicts the uid's oldest, as in a busy heraldd (500,000, the default
/// limit, unless told; a small fill keeps the store within the caches); an
/// `update-content` run first donates the 1,024 interactions its lines refer to.
struct RequestPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request-path",
        abstract: "Time a request's whole path inside heraldd, in one thread."
    )

    @Option(help: "donate, update-content or request-focus.")
    var scenario: Scenario = .donate

    @Option(help: "Donations stored before the clock starts, and the uid's limit (donate only).")
    var fill = 500_000

    @Option(help: "Requests timed, in four equal parts; the fastest part is reported.")
    var count = 1_000_000

    func validate() throws {
        guard scenario != .donateBatch else { throw ValidationError("--scenario donate-batch is not measured here.") }
        guard fill >= 1, count >= 4 else { throw ValidationError("--fill must be at least 1 and --count at least 4.") }
    }

    func run() throws {
        let statistics = ServerStatistics()
        var configuration = CoreConfiguration()
        if scenario == .donate { configuration.maxInteractionsPerUID = fill }
        let environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: configuration)),
            clock: SystemClock(),
            statistics: statistics,
            openRPCDocument: .null
        )
        var path = RequestPath(processor: .herald(environment, limits: RequestLimits(), recorder: DiscardingResultRecorder()))
        let template = scenario.requestTemplate(connection: 0)
        if scenario == .donate {
            path.answer(lines(template, keys: 0..<UInt64(fill)))
        } else if scenario.needsPool {
            path.answer(lines(RequestTemplate(Scenario.donation(identifier: "pool-{KEY}")), keys: 0..<Scenario.poolSize))
        }
        let part = count / 4
        var next = UInt64(scenario == .donate ? fill : 0)
        func fastestPart(_ body: ([UInt8]) throws -> Void) rethrows -> Double {
            var best = Double.infinity
            for _ in 0..<4 {
                let input = lines(template, keys: next..<(next + UInt64(part)))
                next += UInt64(part)
                let start = MonotonicClock.now
                try body(input)
                best = min(best, Double(MonotonicClock.now - start) / Double(part))
            }
            return best
        }
        let framing = fastestPart { input in
            var framer = JSONTextFramer()
            _ = Self.forEachText(in: input, framer: &framer) { _ in }
        }
        let params = try fastestPart { input in
            var framer = JSONTextFramer()
            var failure: RPCError?
            _ = Self.forEachText(in: input, framer: &framer) { tape in
                do throws(RPCError) {
                    try scenario.decodeParams(tape.root[member: "params"]?.asRoot ?? JSONTape.emptyObject.root)
                } catch {
                    failure = error
                }
            }
            if let failure { throw ValidationError("The bench's params did not read: \(failure.reason)") }
        }
        let whole = fastestPart { path.answer($0) }
        let counts = statistics.snapshot().methods
        let errors = counts.values.reduce(0) { $0 + $1.errors }
        guard errors == 0, path.answered == counts.values.reduce(0, { $0 + $1.requests }) else {
            throw ValidationError("\(errors) of \(path.answered) requests failed: \(counts)")
        }
        let stored = environment.state.read { $0.interactionCount }
        print("request-path \(scenario.rawValue), the fastest of 4 parts of \(part) each, \(stored) interactions stored at the end:")
        print("| stage | ns per request |")
        print("|---|---|")
        print("| framing | \(Int(framing.rounded())) |")
        print("| framing, params | \(Int(params.rounded())) |")
        print("| the whole path | \(Int(whole.rounded())) |")
    }

    /// Frames every text in `input`, handing each one's tape to `body`; returns how many.
    fileprivate static func forEachText(in input: [UInt8], framer: inout JSONTextFramer, _ body: (JSONTape) -> Void) -> Int {
        input.withUnsafeBytes { bytes in
            var offset = 0
            var count = 0
            while offset < bytes.count {
                let step = framer.next(in: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                offset += step.consumed
                guard case .text(_, let tape?) = step.event else {
                    precondition(step.event == nil, "The bench's line did not frame: \(String(describing: step.event))")
                    break
                }
                body(tape)
                count += 1
            }
            return count
        }
    }

    /// `template`'s lines for `keys`, one after another, as a client writes them.
    private func lines(_ template: RequestTemplate, keys: Range<UInt64>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.count * 420)
        for key in keys {
            template.render(id: key + 1, key: scenario.key(sequence: key), into: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }
}

/// The part of heraldd's connection that turns bytes into responses, without NIO: the
/// framer over what was read, then each text to the processor, its response into one
/// reused array.
private struct RequestPath {
    let processor: RequestProcessor
    var framer = JSONTextFramer()
    var response: [UInt8] = []
    var answered: UInt64 = 0
    let context = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false))

    init(processor: RequestProcessor) {
        self.processor = processor
    }

    /// Frames and answers every text in `input`.
    mutating func answer(_ input: [UInt8]) {
        let processor = processor
        let context = context
        var response = response
        answered += UInt64(
            RequestPathCommand.forEachText(in: input, framer: &framer) { tape in
                response.removeAll(keepingCapacity: true)
                switch processor.reply(to: .parsed(tape), context: context, appendingTo: &response) {
                case .now: break
                case .offEventLoop: preconditionFailure("\(tape) is answered off the event loop")
                }
            })
        self.response = response
    }
}

extension Scenario {
    /// Reads this scenario's params as heraldd does, typed, and drops them.
    func decodeParams(_ params: JSONNode) throws(RPCError) {
        switch self {
        case .donate, .donateBatch: _ = try DonateMethod.decodeParams(params)
        case .updateContent: _ = try UpdateContentMethod.decodeParams(params)
        case .requestFocus: _ = try RequestFocusMethod.decodeParams(params)
        }
    }
}
