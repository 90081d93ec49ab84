import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// The donations a client pipelines in one read share one hold of the state's lock, and
/// are answered, journalled and logged as if each had come alone.
@Suite("RequestRun: a read's donations in one hold of the lock, in process")
struct RequestRunTests {
    /// One server on an `EmbeddedChannel`, capturing its change log and its records.
    struct Server {
        let channel: EmbeddedChannel
        let state: SharedState
        let recorder = CollectingRecorder()
        let changes = NIOLockedValueBox<[PendingChange]>([])

        init() throws {
            let changes = self.changes
            state = SharedState(HeraldState(configuration: CoreConfiguration(maxInteractionsPerUID: 3))) { change in
                changes.withLockedValue { $0.append(change) }
            }
            var environment = MethodEnvironment(
                state: state, clock: CapturingClock(ManualClock()), statistics: ServerStatistics(), openRPCDocument: ["openrpc": "1.3.2"])
            environment.capturesChanges = true
            let processor = RequestProcessor(
                methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
                limits: RequestLimits(), statistics: ServerStatistics(), recorder: recorder)
            let context = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 43, isAdministrator: false))
            channel = EmbeddedChannel(handlers: ConnectionHandler.pipeline(processor: processor, context: context))
            try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/herald-test.sock")).wait()
        }

        /// What `body` returns, and how many times it took the state's lock.
        func holds<Value>(_ body: () throws -> Value) rethrows -> (Value, UInt64) {
            let before = state.holdCount
            let value = try body()
            // Each count is a hold of its own.
            return (value, state.holdCount - before - 1)
        }

        /// Sends `texts` in one read, or each in a read of its own; returns the lines answered.
        func send(_ texts: [String], oneRead: Bool) throws -> [String] {
            if oneRead {
                try channel.writeInbound(ByteBuffer(string: texts.joined()))
            } else {
                for text in texts { try channel.writeInbound(ByteBuffer(string: text)) }
            }
            var written = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += String(buffer: buffer) }
            return written.split(separator: "\n").map(String.init)
        }
    }

    static func donate(id: Int?, identifier: String, text: String = "Lunch?", app: String = "org.example.chat") -> String {
        let member = id.map { #""id":\#($0),"# } ?? ""
        return #"{"jsonrpc":"2.0",\#(member)"method":"donate","params":{"app":"\#(app)","interaction":{"identifier":"\#(identifier)","#
            + #""direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"content":"\#(text)","#
            + #""conversationIdentifier":"c1"}}}}"# + "\n"
    }

    /// Every kind of answer a donation can get, in one read: stored, evicting the oldest
    /// (a store of 3), a retry (which ends the hold: it compares outside it), a conflict,
    /// bad params, a notification, and a text that is no request.
    static let texts = [
        donate(id: 1, identifier: "a"),
        donate(id: 2, identifier: "b"),
        donate(id: 3, identifier: "a"),
        donate(id: 4, identifier: "c"),
        donate(id: 5, identifier: "b", text: "Dinner?"),
        donate(id: 6, identifier: "d", app: "not an app"),
        donate(id: nil, identifier: "e"),
        #"{"id":8,"method":"donate","params":{}}"# + "\n",
        donate(id: 9, identifier: "f"),
    ]

    @Test("Answers, journal records and change log records are those of the requests one by one; the lock is taken fewer times")
    func aReadSharesOneHold() throws {
        let alone = try Server()
        let (answersAlone, holdsAlone) = try alone.holds { try alone.send(Self.texts, oneRead: false) }
        let together = try Server()
        let (answersTogether, holdsTogether) = try together.holds { try together.send(Self.texts, oneRead: true) }

        #expect(answersTogether == answersAlone)
        #expect(answersTogether.count == 8)
        let ids = answersTogether.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
        #expect(ids == [1, 2, 3, 4, 5, 6, 8, 9])
        let codes = answersTogether.map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int
        }
        #expect(codes == [nil, nil, nil, nil, 1007, -32602, -32600, nil])

        let records = { (server: Server) in
            server.recorder.records.map { "\($0.requestID ?? "-") \($0.outcome) \($0.errorCode.map { "\($0)" } ?? "-") \($0.errorPointer ?? "-") \($0.audit)" }
        }
        #expect(records(together) == records(alone))
        #expect(together.recorder.records.count == 9)
        let logged = { (server: Server) in
            server.changes.withLockedValue { $0.map { "\($0.method) \($0.donation?.interaction.identifier ?? "-") \($0.appliedAt.map { "\($0)" } ?? "-")" } }
        }
        #expect(logged(together) == logged(alone))
        #expect(logged(together).count == 6)
        #expect(together.state.read { $0.interactionCount } == alone.state.read { $0.interactionCount })

        // Alone, a hold per donation that reached the rules (7) and per retry's second
        // step (2). Together, a hold up to each retry, one for its second step, and one
        // for the rest.
        #expect(holdsAlone == 9)
        #expect(holdsTogether == 5)
    }
}
