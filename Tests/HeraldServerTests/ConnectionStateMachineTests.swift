import Testing

@testable import HeraldServer

/// The connection's rules as a value: events in, actions out, no channel.
@Suite("ConnectionStateMachine")
struct ConnectionStateMachineTests {
    @Test("A read asked for under back-pressure is held, and passed on when the pressure eases")
    func readHeldUnderPressure() {
        var machine = ConnectionStateMachine()
        #expect(machine.readRequested() == .read)
        #expect(machine.pauseForPressure() == .flushAndCheckForStall)
        #expect(!machine.mayAnswer)
        #expect(machine.readRequested() == .hold)
        #expect(machine.pressureRelieved(channelIsActive: true) == .resume(inputClosed: false, passOnRead: true))
        #expect(machine.mayAnswer)
        #expect(machine.readRequested() == .read)
    }

    @Test("Waiting for a reply, reads are not held (autoRead is off instead), and no read is owed after")
    func awaitingReply() {
        var machine = ConnectionStateMachine()
        #expect(machine.awaitReply() == .flushAndStopReading)
        #expect(machine.isPaused)
        #expect(machine.readRequested() == .read)
        #expect(machine.pressureRelieved(channelIsActive: true) == .none, "not that pause")
        #expect(machine.isPaused)
        #expect(machine.replyArrived(channelIsActive: true) == .writeAndResume(.resume(inputClosed: false, passOnRead: false)))
    }

    @Test("The client's end while paused is handled when the pause ends")
    func inputClosedWhilePaused() {
        var machine = ConnectionStateMachine()
        _ = machine.awaitReply()
        #expect(machine.inputClosed() == .later)
        #expect(machine.replyArrived(channelIsActive: true) == .writeAndResume(.resume(inputClosed: true, passOnRead: false)))
        #expect(machine.inputClosed() == .finishAndClose)
        #expect(machine.close() == .closeAfterWrites)
        #expect(machine.close() == .none, "closing happens once")
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
        _ = machine.pauseForPressure()
        #expect(machine.drainRequested(hasPartialText: false) == .wait)
        #expect(machine.afterFraming(hasPartialText: false) == .none, "paused: nothing yet")
        #expect(machine.pressureRelieved(channelIsActive: true) == .resume(inputClosed: false, passOnRead: false))
        #expect(machine.afterFraming(hasPartialText: false) == .close)
    }

    @Test("A reply that arrives after the connection closed, or went inactive, resumes nothing")
    func replyAfterClose() {
        var closed = ConnectionStateMachine()
        _ = closed.awaitReply()
        #expect(closed.close() == .closeAfterWrites)
        #expect(closed.replyArrived(channelIsActive: true) == .none)

        var inactive = ConnectionStateMachine()
        _ = inactive.awaitReply()
        #expect(inactive.replyArrived(channelIsActive: false) == .none)
        #expect(!inactive.isPaused)
    }

    @Test("The idle timeout closes only a connection with nothing under way")
    func idle() {
        var machine = ConnectionStateMachine()
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .close)
        #expect(machine.idleTimedOut(hasPartialText: true, holdsSubscription: false) == .rearm)
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: true) == .rearm)
        _ = machine.awaitReply()
        #expect(machine.idleTimedOut(hasPartialText: false, holdsSubscription: false) == .rearm)
        _ = machine.replyArrived(channelIsActive: true)
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
        _ = machine.pauseForPressure()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
        _ = machine.pressureRelieved(channelIsActive: true)
        _ = machine.awaitReply()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
        _ = machine.close()
        #expect(machine.nextText(channelIsWritable: true, pressureIsHigh: false) == .wait)
    }

    @Test("Output: responses are gathered up to the bound, and a large one goes by itself")
    func output() {
        let machine = ConnectionStateMachine()
        let bound = ConnectionStateMachine.outputBytesPerWrite
        #expect(machine.output(forResponseOf: 108, gathered: 0) == .gather)
        #expect(machine.output(forResponseOf: 108, gathered: bound - 200) == .gather)
        #expect(machine.output(forResponseOf: 108, gathered: bound - 108) == .gatherAndSend, "it reaches the bound")
        #expect(machine.output(forResponseOf: bound, gathered: 0) == .sendGatheredThenWrite)
        #expect(machine.output(forResponseOf: bound + 1, gathered: 100) == .sendGatheredThenWrite)
    }

    @Test("A read's end flushes, then closes a drained connection or keeps the read timeout right; nothing once closing")
    func readComplete() {
        var machine = ConnectionStateMachine()
        #expect(machine.readComplete(hasPartialText: true) == .flush(then: .rescheduleReadTimeout))
        machine.textFramed()
        _ = machine.drainRequested(hasPartialText: true)
        #expect(machine.readComplete(hasPartialText: false) == .flush(then: .close))
        _ = machine.pauseForPressure()
        #expect(machine.readComplete(hasPartialText: false) == .flush(then: .none), "paused: flush, decide later")
        _ = machine.close()
        #expect(machine.readComplete(hasPartialText: false) == .none)
    }

    @Test("The stall check asks the queue while paused for back-pressure, and again until it is released or the pause ends")
    func stallCheck() {
        var machine = ConnectionStateMachine()
        #expect(machine.stallCheckDue() == .none, "not paused")
        #expect(machine.pauseForPressure() == .flushAndCheckForStall)
        #expect(machine.stallCheckDue() == .askWhetherStalled)
        #expect(machine.stallChecked(released: false) == .scheduleStallCheck)
        #expect(machine.stallChecked(released: true) == .none, "the queue gave the pause up: its resume comes")
        _ = machine.pressureRelieved(channelIsActive: true)
        #expect(machine.stallCheckDue() == .none)
        #expect(machine.stallChecked(released: false) == .none)

        var waitingForReply = ConnectionStateMachine()
        _ = waitingForReply.awaitReply()
        #expect(waitingForReply.stallCheckDue() == .none, "a reply's pause is not the queue's")
    }

    @Test("Output read by the client answers the waiting texts, unless paused or closing")
    func writability() {
        var machine = ConnectionStateMachine()
        #expect(machine.writabilityChanged(isWritable: true) == .answerWaiting)
        #expect(machine.writabilityChanged(isWritable: false) == .none)
        _ = machine.awaitReply()
        #expect(machine.writabilityChanged(isWritable: true) == .none)
        _ = machine.replyArrived(channelIsActive: true)
        #expect(machine.writabilityChanged(isWritable: true) == .answerWaiting)
        _ = machine.close()
        #expect(machine.writabilityChanged(isWritable: true) == .none)
        #expect(machine.awaitReply() == .none, "no pause once closing")
        #expect(machine.pauseForPressure() == .none)
    }
}
