import Testing

@testable import HeraldServer

/// The connection's rules as a value: events in, actions out, no channel.
@Suite("ConnectionStateMachine")
struct ConnectionStateMachineTests {
    @Test("A read asked for under back-pressure is held, and passed on when the pressure eases")
    func readHeldUnderPressure() {
        var machine = ConnectionStateMachine()
        #expect(machine.readRequested() == .read)
        machine.pauseForPressure()
        #expect(!machine.mayAnswer)
        #expect(machine.readRequested() == .hold)
        #expect(machine.pauseEnded(.pressure(heldRead: false), channelIsActive: true) == .resume(inputClosed: false, passOnRead: true))
        #expect(machine.mayAnswer)
        #expect(machine.readRequested() == .read)
    }

    @Test("Waiting for a reply, reads are not held (autoRead is off instead), and no read is owed after")
    func awaitingReply() {
        var machine = ConnectionStateMachine()
        machine.awaitReply()
        #expect(machine.isPaused)
        #expect(machine.readRequested() == .read)
        #expect(machine.pauseEnded(.pressure(heldRead: false), channelIsActive: true) == .none, "not that pause")
        #expect(machine.isPaused)
        #expect(machine.pauseEnded(.awaitingReply, channelIsActive: true) == .resume(inputClosed: false, passOnRead: false))
    }

    @Test("The client's end while paused is handled when the pause ends")
    func inputClosedWhilePaused() {
        var machine = ConnectionStateMachine()
        machine.awaitReply()
        #expect(machine.inputClosed() == .later)
        #expect(machine.pauseEnded(.awaitingReply, channelIsActive: true) == .resume(inputClosed: true, passOnRead: false))
        #expect(machine.inputClosed() == .finishAndClose)
        let first = machine.close()
        let second = machine.close()
        #expect(first)
        #expect(!second, "closing happens once")
        #expect(machine.inputClosed() == .none)
        #expect(!machine.mayAnswer)
    }

    @Test("Draining waits for the first text and for a text under way, then closes after a grace")
    func draining() {
        var machine = ConnectionStateMachine()
        #expect(machine.drainRequested(hasPartialText: false) == .wait, "nothing sent yet")
        #expect(machine.afterFraming(hasPartialText: true) == .rescheduleReadTimeout)
        machine.textFramed()
        #expect(machine.afterFraming(hasPartialText: false) == .close)

        var answered = ConnectionStateMachine()
        answered.textFramed()
        #expect(answered.drainRequested(hasPartialText: true) == .wait, "a text under way")
        #expect(answered.drainRequested(hasPartialText: false) == .closeAfterGrace)
    }

    @Test("Draining while paused closes once the pause ends and nothing is left")
    func drainingWhilePaused() {
        var machine = ConnectionStateMachine()
        machine.textFramed()
        machine.pauseForPressure()
        #expect(machine.drainRequested(hasPartialText: false) == .wait)
        #expect(machine.afterFraming(hasPartialText: false) == .none, "paused: nothing yet")
        #expect(machine.pauseEnded(.pressure(heldRead: false), channelIsActive: true) == .resume(inputClosed: false, passOnRead: false))
        #expect(machine.afterFraming(hasPartialText: false) == .close)
    }

    @Test("A reply that arrives after the connection closed, or went inactive, resumes nothing")
    func replyAfterClose() {
        var closed = ConnectionStateMachine()
        closed.awaitReply()
        let closing = closed.close()
        #expect(closing)
        #expect(closed.pauseEnded(.awaitingReply, channelIsActive: true) == .none)

        var inactive = ConnectionStateMachine()
        inactive.awaitReply()
        #expect(inactive.pauseEnded(.awaitingReply, channelIsActive: false) == .none)
        #expect(!inactive.isPaused)
    }

    @Test("The idle timeout closes only a connection with nothing under way")
    func idle() {
        var machine = ConnectionStateMachine()
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .close)
        #expect(machine.idleTimedOut(hasPartialText: true, holdsSubscription: false) == .rearm)
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: true) == .rearm)
        machine.awaitReply()
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .rearm)
        _ = machine.pauseEnded(.awaitingReply, channelIsActive: true)
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .rearm, "answered since")
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .close)
        _ = machine.close()
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .none)
    }

    @Test("A framed text is answered only when open, not paused, writable and the results' queue has room")
    func nextText() {
        var machine = ConnectionStateMachine()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .answer)
        #expect(machine.nextText(channelIsWritable: false, pressureIsHigh: false) == .wait, "output waits unread")
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: true) == .pauseForPressure)
        #expect(machine.nextText(channelIsWritable: false, pressureIsHigh: true) == .wait)
        machine.pauseForPressure()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
        _ = machine.pauseEnded(.pressure(heldRead: false), channelIsActive: true)
        machine.awaitReply()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
        _ = machine.close()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
    }
}
