import HeraldCore
import HeraldProtocol
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// Back-pressure the test controls: it goes high once `highAfter` results were recorded,
/// and low when the test says so, calling the waiting `resume`s on the test's thread.
final class ControlledPressure: IntakePressure, ResultRecorder, Sendable {
    private struct State {
        var recorded = 0
        var isHigh = false
        var waiting: [@Sendable () -> Void] = []
        var stallChecks = 0
        var stalled = false
    }

    private let state = NIOLockedValueBox(State())
    private let highAfter: Int

    init(highAfter: Int) {
        self.highAfter = highAfter
    }

    var recorded: Int { state.withLockedValue { $0.recorded } }
    var stallChecks: Int { state.withLockedValue { $0.stallChecks } }
    var pressure: (any IntakePressure)? { self }

    func record(_ result: ResultRecord) {
        state.withLockedValue { state in
            state.recorded += 1
            if state.recorded == highAfter { state.isHigh = true }
        }
    }

    var isHigh: Bool { state.withLockedValue { $0.isHigh } }

    func resumeWhenLow(_ resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLockedValue { state in
            guard state.isHigh else { return false }
            state.waiting.append(resume)
            return true
        }
    }

    func releaseIfStalled() -> Bool {
        let stalled = state.withLockedValue { state in
            state.stallChecks += 1
            return state.stalled
        }
        if stalled { low() }
        return stalled
    }

    /// The consumer is stuck: the next stall check gives the pause up.
    func stall() {
        state.withLockedValue { $0.stalled = true }
    }

    func low() {
        let waiting = state.withLockedValue { state in
            state.isHigh = false
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0() }
    }
}

/// Counts the reads the channel is asked for; first in the pipeline.
final class ReadCounter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = ByteBuffer
    private let box = NIOLockedValueBox(0)
    var reads: Int { box.withLockedValue { $0 } }

    func read(context: ChannelHandlerContext) {
        box.withLockedValue { $0 += 1 }
        context.read()
    }
}

extension ConnectionHandlerTests {
    static func requests(_ count: Int) -> String {
        (1...count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"no-such-method"}"# + "\n" }.joined()
    }

    private func pressuredChannel(_ pressure: ControlledPressure) throws -> (EmbeddedChannel, ReadCounter) {
        let (channel, _) = try makeChannel(recorder: pressure)
        let counter = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter, position: .first)
        return (channel, counter)
    }

    @Test("Under back-pressure a connection answers nothing more and reads nothing more until it is relieved")
    func pausedConnectionDoesNotRead() throws {
        let pressure = ControlledPressure(highAfter: 2)
        let (channel, counter) = try pressuredChannel(pressure)
        try send(Self.requests(5), to: channel)
        #expect(try writtenLines(channel).count == 2, "two results made the pressure high")
        let reads = counter.reads
        channel.read()
        channel.read()
        #expect(counter.reads == reads, "reads are held back")
        #expect(pressure.recorded == 2)
        // Paused is not idle, and not a client that stopped halfway through a request.
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        #expect(try writtenLines(channel).isEmpty)

        pressure.low()
        channel.embeddedEventLoop.run()
        let lines = try writtenLines(channel)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""code":-32601"#) })
        #expect(counter.reads == reads + 1, "the held read is passed on")
        channel.read()
        #expect(counter.reads == reads + 2)
        #expect(pressure.stallChecks > 0, "a paused connection asked whether the consumer is stuck")
    }

    @Test("A client that shuts its write side while paused is answered in full, then closed")
    func inputClosedWhilePaused() throws {
        let pressure = ControlledPressure(highAfter: 1)
        let (channel, _) = try pressuredChannel(pressure)
        try send(Self.requests(3), to: channel)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(try writtenLines(channel).count == 1)
        #expect(channel.isActive)
        pressure.low()
        channel.embeddedEventLoop.run()
        #expect(try writtenLines(channel).count == 2)
        #expect(!channel.isActive)
    }

    @Test("When the consumer is stuck, the stall check ends the pause")
    func stallCheckEndsThePause() throws {
        let pressure = ControlledPressure(highAfter: 1)
        let (channel, _) = try pressuredChannel(pressure)
        try send(Self.requests(2), to: channel)
        #expect(try writtenLines(channel).count == 1)
        pressure.stall()
        channel.embeddedEventLoop.advanceTime(by: ConnectionHandler.stallCheckInterval)
        channel.embeddedEventLoop.run()
        #expect(try writtenLines(channel).count == 1)
    }
}
