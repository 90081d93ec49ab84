import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// The connection's drain, idle timeout and output bound, in process on an
/// `EmbeddedChannel` whose clock the test advances.
@Suite("ConnectionHandler: drain, idle timeout, unread output, in process")
struct ConnectionHandlerTests {
    static let request = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n"

    func makeChannel(
        idleTimeout: Double = 0,
        holdsSubscription: @escaping @Sendable () -> Bool = { false },
        recorder: any ResultRecorder = CollectingRecorder()
    ) throws -> (EmbeddedChannel, ServerStatistics) {
        var limits = RequestLimits()
        limits.idleTimeout = idleTimeout
        let statistics = ServerStatistics()
        let environment = MethodEnvironment.empty(statistics: statistics)
        let processor = RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: limits,
            statistics: statistics,
            recorder: recorder
        )
        let context = RequestContext(caller: Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true))
        let hooks = ConnectionHooks(holdsSubscription: holdsSubscription, closedIdle: { statistics.recordIdleClose() })
        let channel = EmbeddedChannel(handlers: ConnectionHandler.pipeline(processor: processor, context: context, hooks: hooks))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/herald-test.sock")).wait()
        return (channel, statistics)
    }

    func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// Every line written to the client so far.
    func writtenLines(_ channel: EmbeddedChannel) throws -> [String] {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            text += String(buffer: buffer)
        }
        return text.split(separator: "\n").map(String.init)
    }

    @Test("Draining, a connection that has sent nothing yet is waited for, answered, then closed")
    func drainWaitsForFirstRequest() throws {
        let (channel, _) = try makeChannel()
        channel.pipeline.fireUserInboundEventTriggered(DrainConnection())
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(channel.isActive)
        try send(Self.request, to: channel)
        channel.embeddedEventLoop.run()
        #expect(try writtenLines(channel).count == 1)
        #expect(!channel.isActive)
    }

    @Test("Draining, an answered connection reads what is buffered before it closes")
    func drainReadsBufferedBytes() throws {
        let (channel, _) = try makeChannel()
        try send(Self.request, to: channel)
        #expect(try writtenLines(channel).count == 1)
        channel.pipeline.fireUserInboundEventTriggered(DrainConnection())
        // Bytes that were in the socket buffer arrive within the grace: answered, then closed.
        try send(Self.request, to: channel)
        channel.embeddedEventLoop.run()
        #expect(try writtenLines(channel).count == 1)
        #expect(!channel.isActive)
    }

    @Test("Draining, an answered connection with nothing more closes after the grace")
    func drainClosesIdleAnswered() throws {
        let (channel, _) = try makeChannel()
        try send(Self.request, to: channel)
        _ = try writtenLines(channel)
        channel.pipeline.fireUserInboundEventTriggered(DrainConnection())
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: ConnectionHandler.drainReadGrace)
        #expect(!channel.isActive)
    }

    @Test("While output waits unread (not writable), framed requests wait; once writable, they are answered")
    func unreadOutputPausesAnswers() throws {
        let (channel, _) = try makeChannel()
        channel.isWritable = false
        try send(Self.request + Self.request + Self.request, to: channel)
        #expect(try writtenLines(channel).isEmpty)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(try writtenLines(channel).count == 3)
        #expect(channel.isActive)
    }

    /// Every buffer written to the client so far, as text.
    func writtenBuffers(_ channel: EmbeddedChannel) throws -> [String] {
        var buffers: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            buffers.append(String(buffer: buffer))
        }
        return buffers
    }

    static func stats(id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"stats"}"# + "\n"
    }

    @Test("The answers to one read leave in one buffer, in request order")
    func answersToOneReadLeaveTogether() throws {
        let (channel, _) = try makeChannel()
        try send((1...5).map { Self.stats(id: $0) }.joined(), to: channel)
        let buffers = try writtenBuffers(channel)
        #expect(buffers.count == 1)
        let ids = buffers.joined().split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
        #expect(ids == [1, 2, 3, 4, 5])
    }

    @Test("A line another part of the server writes leaves after the answers gathered before it")
    func subscriberLineFollowsGatheredAnswers() throws {
        let (channel, _) = try makeChannel()
        // Read, not yet read-complete: the answers are gathered, not flushed.
        channel.pipeline.fireChannelRead(NIOAny(ByteBuffer(string: Self.stats(id: 1) + Self.stats(id: 2))))
        try channel.writeAndFlush(ByteBuffer(string: "{\"method\":\"focus-changed\"}\n")).wait()
        let lines = try writtenLines(channel)
        #expect(lines.count == 3)
        #expect(lines.last == "{\"method\":\"focus-changed\"}")
        #expect(lines.first?.contains("\"id\":1") == true)
    }

    @Test("Gathered answers past 16 KiB are passed on at once, so the unread-output bound sees them")
    func largeAnswersPassOnAtOnce() throws {
        let (channel, _) = try makeChannel()
        try send((1...64).map { Self.stats(id: $0) }.joined(), to: channel)
        let buffers = try writtenBuffers(channel)
        let lines = buffers.joined().split(separator: "\n")
        try #require(lines.count == 64)
        // More than 16 KiB in all, so more than one buffer, each cut at a response's end.
        #expect(lines.reduce(0) { $0 + $1.utf8.count } > ConnectionStateMachine.outputBytesPerWrite)
        #expect(buffers.count > 1)
        #expect(buffers.allSatisfy { $0.hasSuffix("\n") })
        #expect(buffers.dropLast().allSatisfy { $0.utf8.count >= ConnectionStateMachine.outputBytesPerWrite })
    }

    @Test("With --idle-timeout set, NIO's IdleStateHandler is in the pipeline ahead of the framer")
    func idleStateHandlerInPipeline() throws {
        let (idle, _) = try makeChannel(idleTimeout: 10)
        _ = try idle.pipeline.syncOperations.handler(type: IdleStateHandler.self)
        let (unlimited, _) = try makeChannel()
        #expect(throws: (any Error).self) { try unlimited.pipeline.syncOperations.handler(type: IdleStateHandler.self) }
    }

    /// `IdleStateHandler` times reads on the system's clock, not the embedded loop's: these
    /// tests send its event; the end-to-end suite runs its timer.
    @Test("An idle connection is closed when nothing was read for --idle-timeout; one holding a subscription is not")
    func idleTimeout() throws {
        let (idle, statistics) = try makeChannel(idleTimeout: 10)
        try send(Self.request, to: idle)
        #expect(try writtenLines(idle).count == 1)
        idle.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        #expect(!idle.isActive)
        #expect(statistics.limitCounts.closedIdle == 1)

        let (subscriber, _) = try makeChannel(idleTimeout: 10, holdsSubscription: { true })
        subscriber.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        #expect(subscriber.isActive)
    }

    @Test("A connection holding part of a request is not idle: the read timeout is its rule")
    func partialRequestIsNotIdle() throws {
        let (channel, statistics) = try makeChannel(idleTimeout: 10)
        try send(#"{"jsonrpc":"2.0","#, to: channel)
        channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        #expect(channel.isActive)
        #expect(statistics.limitCounts.closedIdle == 0)
    }

    @Test("Part of a request and then nothing for --read-timeout: answered with what is unfinished, then closed")
    func readTimeout() throws {
        let (channel, _) = try makeChannel()
        try send(#"{"jsonrpc":"2.0","#, to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        try send(#""params":{"a":["#, to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive, "each read restarts the timeout")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let lines = try writtenLines(channel)
        try #require(lines.count == 1)
        #expect(lines[0].contains("an object opened at byte 0 was never closed (3 levels still open)"))
        #expect(!channel.isActive)
    }

    @Test("Whole requests leave no read timeout behind")
    func wholeRequestsArmNoReadTimeout() throws {
        let (channel, _) = try makeChannel()
        try send(Self.request + "  ", to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(try writtenLines(channel).count == 1)
        #expect(channel.isActive)
    }
}

@Suite("ServerStatistics: connection admission per uid")
struct ConnectionAdmissionTests {
    @Test("A uid at its limit is refused; other uids and administrators are not; the kept slots are administrators' only")
    func admission() {
        let statistics = ServerStatistics()
        func open(_ uid: UInt32, admin: Bool = false) -> ServerStatistics.Admission {
            statistics.openConnection(uid: uid, isAdministrator: admin, limit: 6, reservedForAdministrators: 2, perUID: 2)
        }
        #expect(open(1000) == .admitted)
        #expect(open(1000) == .admitted)
        #expect(open(1000) == .uidAtLimit(limit: 2))
        #expect(open(1001) == .admitted)
        #expect(open(1001) == .admitted)
        // Four of six slots are taken: the last two are kept for administrators.
        #expect(open(1002) == .serverFull(limit: 4))
        #expect(open(0, admin: true) == .admitted)
        #expect(open(0, admin: true) == .admitted)
        #expect(open(0, admin: true) == .serverFull(limit: 6))
        // Below the kept slots again, uid 1000 (now under its share) is admitted.
        statistics.closeConnection(uid: 1000)
        #expect(open(1000) == .serverFull(limit: 4))
        statistics.closeConnection(uid: 0)
        statistics.closeConnection(uid: 0)
        #expect(open(1000) == .admitted)
        let counts = statistics.limitCounts
        #expect(counts.refusedForUIDLimit == 1)
        #expect(counts.busiestUIDConnections == 2)
    }
}

extension MethodEnvironment {
    /// An empty state on a manual clock, for in-process server tests.
    static func empty(statistics: ServerStatistics) -> MethodEnvironment {
        MethodEnvironment(
            state: SharedState(HeraldState(configuration: CoreConfiguration())),
            clock: ManualClock(),
            statistics: statistics,
            openRPCDocument: ["openrpc": "1.3.2"]
        )
    }
}
