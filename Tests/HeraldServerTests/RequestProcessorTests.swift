import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// Collects every result record, for checking what the journal would get.
final class CollectingRecorder: ResultRecorder, Sendable {
    private let box = NIOLockedValueBox<[ResultRecord]>([])
    var records: [ResultRecord] { box.withLockedValue { $0 } }
    func record(_ result: ResultRecord) { box.withLockedValue { $0.append(result) } }
}

@Suite("RequestProcessor: JSON-RPC envelope and dispatch, in process")
struct RequestProcessorTests {
    let recorder = CollectingRecorder()
    let statistics = ServerStatistics()
    let processor: RequestProcessor
    let administrator = RequestContext(caller: Caller(uid: 0, gid: 0, pid: 42, isAdministrator: true))
    let user = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 43, isAdministrator: false))

    init() {
        var limits = RequestLimits()
        limits.maxBatchLength = 3
        let environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: CoreConfiguration())),
            clock: ManualClock(),
            statistics: statistics,
            openRPCDocument: ["openrpc": "1.3.2"]
        )
        let registry = ConnectionRegistry()
        processor = RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: registry)),
            limits: limits,
            statistics: statistics,
            recorder: recorder
        )
    }

    private func respond(_ text: String, as context: RequestContext? = nil) throws -> JSONValue? {
        guard let bytes = processor.process(text: Array(text.utf8), context: context ?? administrator) else { return nil }
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(bytes.dropLast().contains(UInt8(ascii: "\n")) == false)
        return try JSONParser.parse(Array(bytes.dropLast()))
    }

    @Test("A request is answered on one line with its id; a notification is not answered but is recorded")
    func requestAndNotification() throws {
        let response = try #require(try respond(#"{"jsonrpc":"2.0","method":"rpc.discover","id":7}"#))
        #expect(response == ["jsonrpc": "2.0", "id": 7, "result": ["openrpc": "1.3.2"]])
        #expect(try respond(#"{"jsonrpc":"2.0","method":"rpc.discover"}"#) == nil)
        #expect(recorder.records.map(\.requestID) == ["7", nil])
        #expect(recorder.records.allSatisfy { $0.outcome == .ok && $0.method == "rpc.discover" })
    }

    @Test("An unknown method called with positional params gets -32601, a known one -32602")
    func unknownMethodBeforeParams() throws {
        let unknown = try #require(try respond(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#))
        #expect(unknown[pointer: "/error/code"] == .number(JSONNumber(-32601)))
        let known = try #require(try respond(#"{"jsonrpc":"2.0","method":"stats","params":[1],"id":2}"#))
        #expect(known[pointer: "/error/code"] == .number(JSONNumber(-32602)))
        #expect(known[pointer: "/error/data/pointer"] == "")
        #expect(try respond(#"{"jsonrpc":"2.0","method":"stats","params":[1]}"#) == nil)
    }

    @Test("stats counts only Herald's own method names, so clients cannot grow its table")
    func statsKeysAreBounded() throws {
        for index in 0..<20 {
            _ = try respond(#"{"jsonrpc":"2.0","method":"made-up-\#(index)","id":1}"#)
            _ = try respond(#"{"method":"also-made-up-\#(index)","id":1}"#)
        }
        _ = try respond(#"{"jsonrpc":"2.0","method":"stats","id":1}"#)
        let methods = statistics.snapshot().methods
        #expect(Set(methods.keys) == [ServerStatistics.unknownMethodKey, "stats"])
        #expect(methods[ServerStatistics.unknownMethodKey] == ServerStatistics.MethodCounts(requests: 40, errors: 40))
    }

    @Test("A batch answers its requests in order; one over --max-batch gets a single -32600")
    func batches() throws {
        let response = try #require(
            try respond(#"[{"jsonrpc":"2.0","method":"rpc.discover","id":"a"},{"jsonrpc":"2.0","method":"x"},5]"#)
        )
        let elements = try #require(response.arrayValue)
        #expect(elements.map { $0[pointer: "/id"] } == ["a", .null])
        #expect(elements[1][pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(recorder.records.count == 3)

        let tooLong = try #require(try respond("[" + Array(repeating: "{}", count: 4).joined(separator: ",") + "]"))
        #expect(tooLong[pointer: "/error/code"] == .number(JSONNumber(-32600)))
        #expect(tooLong[pointer: "/error/data/limit"] == .number(JSONNumber(3)))
    }

    @Test("Administrator methods answer others with 1006 before looking at their params")
    func administratorOnly() throws {
        let denied = try #require(try respond(#"{"jsonrpc":"2.0","method":"snapshot","params":{"limit":"seven"},"id":1}"#, as: user))
        #expect(denied[pointer: "/error/code"] == .number(JSONNumber(1006)))
        let record = try #require(recorder.records.last)
        #expect(record.caller.uid == 1000)
        #expect(record.errorCode == .permissionDenied)
        // This server keeps no snapshots: an administrator is answered, but not with 1006.
        let answered = try #require(try respond(#"{"jsonrpc":"2.0","method":"snapshot","id":2}"#, as: administrator))
        #expect(answered[pointer: "/error/code"] != .number(JSONNumber(1006)), "\(answered)")
    }

    @Test("stats answers a person with their own figures, an administrator with the daemon's (issue 45)")
    func statsByView() throws {
        let person = try #require(try respond(#"{"jsonrpc":"2.0","method":"stats","params":{},"id":1}"#, as: user))
        #expect(person[pointer: "/result/view"] == "person", "\(person)")
        #expect(person[pointer: "/result/uid"] == .number(JSONNumber(1000)))
        #expect(person[pointer: "/result/methods"] == nil, "no counters of other people's requests")
        #expect(person[pointer: "/result/limits"] == nil)
        let whole = try #require(try respond(#"{"jsonrpc":"2.0","method":"stats","params":{},"id":2}"#, as: administrator))
        #expect(whole[pointer: "/result/view"] == "administrator", "\(whole)")
        #expect(whole[pointer: "/result/methods/stats/requests"] == .number(JSONNumber(1)))
    }

    @Test("suggest-people is the person's for their own uid (issue 45: heraldctl turns names into handles); another uid is 1006 at /uid")
    func suggestPeopleIsThePersons() throws {
        let own = try #require(try respond(#"{"jsonrpc":"2.0","method":"suggest-people","params":{},"id":1}"#, as: user))
        #expect(own[pointer: "/result/people"] == .array([]), "\(own)")
        let another = try #require(try respond(#"{"jsonrpc":"2.0","method":"suggest-people","params":{"uid":7},"id":2}"#, as: user))
        #expect(another[pointer: "/error/code"] == .number(JSONNumber(1006)))
        #expect(another[pointer: "/error/data/pointer"] == .string("/uid"))
        let anyUID = try #require(try respond(#"{"jsonrpc":"2.0","method":"suggest-people","params":{"uid":7},"id":3}"#, as: administrator))
        #expect(anyUID[pointer: "/result/people"] == .array([]), "\(anyUID)")
    }

    @Test("Issue 45, item 11: a misspelt required member is named with its meant name; integers print as integers")
    func misspeltMemberAndIntegers() throws {
        let misspelt = try #require(
            try respond(#"{"jsonrpc":"2.0","method":"set-conversation","params":{"app":"org.example.chat","conversationID":"c-trip","priority":true},"id":1}"#, as: user))
        #expect(misspelt[pointer: "/error/data/pointer"] == .string("/conversationID"))
        #expect(misspelt[pointer: "/error/data/reason"] == .string("`/conversationID` is not a known member; did you mean `conversationIdentifier`?"))
        let negative = try #require(
            try respond(
                #"{"jsonrpc":"2.0","method":"set-conversation","params":{"app":"org.example.chat","conversationIdentifier":"c","mute":{"seconds":-1}},"id":2}"#,
                as: user))
        let reason = negative[pointer: "/error/data/reason"]?.stringValue ?? ""
        #expect(reason.hasSuffix("got -1.") && negative[pointer: "/error/data/pointer"] == .string("/mute/seconds"), "\(negative)")
    }

    @Test("Invalid params carry data.pointer to the member at fault, and the journal record names the app")
    func invalidParamsPointer() throws {
        let response = try #require(
            try respond(
                #"{"jsonrpc":"2.0","method":"donate","params":{"app":"org.example.chat","interaction":{"direction":"sideways"}},"id":1}"#,
                as: user
            )
        )
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32602)))
        #expect(response[pointer: "/error/data/pointer"]?.stringValue?.hasPrefix("/interaction/") == true)
        #expect(recorder.records.last?.audit.app == "org.example.chat")
    }

    @Test("A parse error is answered with a null id and recorded without a method")
    func parseError() throws {
        let response = try #require(try respond(#"{"jsonrpc":"2.0","method":"stats","id":1,}"#))
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32700)))
        #expect(response[pointer: "/id"] == .null)
        #expect(recorder.records.last?.method == nil)
        #expect(recorder.records.last?.requestID == "null")
    }

    /// A processor with `--max-string-bytes` at `maxStringBytes`, recording into `recorder`.
    private static func processor(maxStringBytes: Int, recorder: any ResultRecorder, statistics: ServerStatistics) -> RequestProcessor {
        let environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: CoreConfiguration())),
            clock: ManualClock(),
            statistics: statistics,
            openRPCDocument: ["openrpc": "1.3.2"],
            maxStringBytes: maxStringBytes
        )
        return RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: RequestLimits(),
            statistics: statistics,
            recorder: recorder
        )
    }

    @Test(
        "A string of the limit's bytes passes and one more is -32602, written plainly or escaped, framed parsed or whole",
        arguments: [false, true]
    )
    func stringLimitEdge(escaped: Bool) throws {
        let limit = 64
        let processor = Self.processor(maxStringBytes: limit, recorder: recorder, statistics: statistics)
        // "é" is two bytes of UTF-8, written as 2 bytes plainly or 6 as an escape.
        func request(id: Int, nameBytes: Int) -> String {
            let name = String(repeating: escaped ? #"\u00e9"# : "é", count: nameBytes / 2) + (nameBytes.isMultiple(of: 2) ? "" : "n")
            return #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"org.example.chat","interaction":{"direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c","sender":{"handle":{"value":"ann"},"displayName":"\#(name)"}}}}}"#
        }
        for (id, nameBytes) in [(1, limit), (2, limit + 1)] {
            let text = request(id: id, nameBytes: nameBytes)
            let bytes = Array(text.utf8)
            let whole = try #require(processor.process(text: bytes, context: user))
            let value = try JSONTape.parse(bytes)
            var parsedReply: [UInt8] = []
            guard case .now = processor.reply(to: .parsed(value), context: user, appendingTo: &parsedReply),
                !parsedReply.isEmpty
            else {
                Issue.record("no reply to \(text)")
                continue
            }
            for response in [whole, parsedReply] {
                let parsed = try JSONParser.parse(Array(response.dropLast()))
                if nameBytes > limit {
                    #expect(parsed[pointer: "/error/code"] == .number(JSONNumber(-32602)), "\(parsed.compactText)")
                    #expect(parsed[pointer: "/error/data/pointer"] == "/interaction/intent/sender/displayName")
                } else {
                    // The second answer is a retry of the first: both succeed.
                    #expect(parsed[pointer: "/error"] == nil, "\(parsed.compactText)")
                }
            }
        }
    }

    @Test("A recorder that keeps nothing is handed no records, and every result is still counted")
    func discardingRecorderCounts() throws {
        struct RefusingRecorder: ResultRecorder {
            var keepsRecords: Bool { false }
            func record(_ result: ResultRecord) { Issue.record("record built for a recorder that keeps none: \(result.method ?? "-")") }
        }
        let statistics = ServerStatistics()
        let processor = Self.processor(maxStringBytes: 16_384, recorder: RefusingRecorder(), statistics: statistics)
        _ = processor.process(text: Array(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#.utf8), context: user)
        _ = processor.process(text: Array(#"{"jsonrpc":"2.0","method":"nope","id":2}"#.utf8), context: user)
        _ = processor.process(text: Array("{".utf8), context: user)
        let methods = statistics.snapshot().methods
        let requests = methods.values.reduce(0) { $0 + $1.requests }
        let errors = methods.values.reduce(0) { $0 + $1.errors }
        #expect(requests == 3, "\(methods)")
        #expect(errors == 2, "\(methods)")
    }

    @Test("set-focus announces its until to the daemon's alarm, which ends its next sleep at once")
    func setFocusWakesTheTicker() async throws {
        let clock = ManualClock()
        let environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: CoreConfiguration())),
            clock: clock,
            statistics: ServerStatistics(),
            openRPCDocument: ["openrpc": "1.3.2"]
        )
        let processor = RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: RequestLimits(),
            statistics: ServerStatistics(),
            recorder: recorder
        )
        // The clock starts at 2027-01-15T08:00:00Z: the Focus ends a minute later.
        let text = #"{"jsonrpc":"2.0","id":1,"method":"set-focus","params":{"focus":{"name":"Work","until":"2027-01-15T08:01:00Z"}}}"#
        let response = try JSONParser.parse(Array(try #require(processor.process(text: Array(text.utf8), context: user)).dropLast()))
        #expect(response[pointer: "/error"] == nil, "\(response.compactText)")
        // A sleep planned before the request, to two minutes past it, ends at once.
        let started = ContinuousClock.now
        await environment.state.dueAlarm.sleep(until: clock.now().addingTimeInterval(120), on: clock)
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
