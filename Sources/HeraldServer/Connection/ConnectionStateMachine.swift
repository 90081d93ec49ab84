/// What a connection is doing, as a value: its methods take what happened and return what
/// ``ConnectionHandler`` is to do, so that every rule about pausing, draining and closing
/// lives here and is tested without a channel.
///
/// A connection is open, answering the texts it frames, until it closes; while open it may
/// be paused — waiting for a reply computed off the event loop, or for the results' queue
/// to drain (back-pressure) — and it may be draining (the daemon stops: finish what was
/// sent, then close). Closing is for good: writes already made leave, then the channel closes.
struct ConnectionStateMachine {
    enum Pause: Equatable {
        /// A request runs off the event loop; reading is off until its reply is written.
        case awaitingReply
        /// The results' queue is congested; `heldRead` is set when the channel asked to
        /// read meanwhile, which is passed on when the pause ends.
        case pressure(heldRead: Bool)
    }

    struct Open: Equatable {
        var pause: Pause?
        /// The daemon is stopping: finish the text being read (bounded), then close.
        var isDraining = false
        /// The connection has sent a whole text.
        var hasSentText = false
        /// The client shut its write side while paused: handled when the pause ends.
        var inputClosedWhilePaused = false
        /// A pause ended since the idle timeout last looked: the connection was answered,
        /// which counts as activity though nothing was read.
        var resumedSinceIdleCheck = false
    }

    enum State: Equatable {
        case open(Open)
        /// Takes no more requests; closes once its writes are done.
        case closing
    }

    private(set) var state = State.open(Open())

    /// Open and not paused: the connection answers the texts it has framed.
    var mayAnswer: Bool {
        guard case .open(let open) = state else { return false }
        return open.pause == nil
    }

    var isClosing: Bool { state == .closing }

    var isPaused: Bool {
        guard case .open(let open) = state else { return false }
        return open.pause != nil
    }

    // MARK: Reading

    enum ReadAction: Equatable {
        case read
        case hold
    }

    /// The channel asks to read: held while paused for back-pressure.
    mutating func readRequested() -> ReadAction {
        guard case .open(var open) = state, case .pressure = open.pause else { return .read }
        open.pause = .pressure(heldRead: true)
        state = .open(open)
        return .hold
    }

    enum TextAction: Equatable {
        /// Answer the next text now.
        case answer
        /// Keep it with the texts that wait: the connection is paused, or its output
        /// waits unread (the channel is not writable).
        case wait
        /// The results' queue is congested: pause for it and keep the text (or answer it,
        /// if the queue eased meanwhile).
        case pauseForPressure
    }

    /// Whether the next framed text is answered now.
    func nextText(channelIsWritable: Bool, pressureIsHigh: Bool) -> TextAction {
        guard mayAnswer, channelIsWritable else { return .wait }
        return pressureIsHigh ? .pauseForPressure : .answer
    }

    /// A text was framed and is being answered.
    mutating func textFramed() {
        guard case .open(var open) = state else { return }
        open.hasSentText = true
        state = .open(open)
    }

    enum AfterFramingAction: Equatable {
        /// Draining, and nothing is left to answer: close.
        case close
        /// Arm the read timeout if part of a text is held, else disarm it.
        case rescheduleReadTimeout
        case none
    }

    /// Texts were answered (or could not be, for now): what follows.
    func afterFraming(hasPartialText: Bool) -> AfterFramingAction {
        guard case .open(let open) = state, open.pause == nil else { return .none }
        if open.isDraining, !hasPartialText {
            return .close
        }
        return .rescheduleReadTimeout
    }

    // MARK: The client's end and the daemon's drain

    enum InputClosedAction: Equatable {
        /// Answer the last text, if any, then close.
        case finishAndClose
        /// Paused: done when the pause ends.
        case later
        case none
    }

    /// The client shut its write side.
    mutating func inputClosed() -> InputClosedAction {
        switch state {
        case .closing:
            return .none
        case .open(var open) where open.pause != nil:
            open.inputClosedWhilePaused = true
            state = .open(open)
            return .later
        case .open:
            return .finishAndClose
        }
    }

    enum DrainAction: Equatable {
        /// Wait: for the first text, the text under way, or the pause to end.
        case wait
        /// Answered and between texts: look again after a short grace, in which bytes
        /// already in the socket buffer are read.
        case closeAfterGrace
    }

    /// The daemon asks the connection to finish and close.
    mutating func drainRequested(hasPartialText: Bool) -> DrainAction {
        guard case .open(var open) = state else { return .wait }
        open.isDraining = true
        state = .open(open)
        guard open.pause == nil, open.hasSentText, !hasPartialText else { return .wait }
        return .closeAfterGrace
    }

    // MARK: Pauses

    enum PauseAction: Equatable {
        /// Paused for back-pressure: disarm the read timeout, flush what was gathered (the
        /// client keeps its answers while it waits), and ask after a while whether the
        /// queue's writer is stuck.
        case flushAndCheckForStall
        /// Waiting for a reply: disarm the read timeout, flush, and turn the channel's
        /// autoRead off until the reply is written.
        case flushAndStopReading
        /// Closing: no pause.
        case none
    }

    /// A text calls a method that runs off the event loop.
    mutating func awaitReply() -> PauseAction {
        guard case .open(var open) = state else { return .none }
        open.pause = .awaitingReply
        state = .open(open)
        return .flushAndStopReading
    }

    /// The results' queue is congested, and will say when it is not.
    mutating func pauseForPressure() -> PauseAction {
        guard case .open(var open) = state else { return .none }
        open.pause = .pressure(heldRead: false)
        state = .open(open)
        return .flushAndCheckForStall
    }

    var isPausedForPressure: Bool {
        guard case .open(let open) = state, case .pressure = open.pause else { return false }
        return true
    }

    enum StallCheckAction: Equatable {
        /// Still paused for back-pressure: ask the queue whether its writer is stuck.
        case askWhetherStalled
        /// The pause has ended (or the connection closed): nothing to check.
        case none
    }

    /// The stall check's timer fired.
    func stallCheckDue() -> StallCheckAction {
        isPausedForPressure ? .askWhetherStalled : .none
    }

    enum StallAnswerAction: Equatable {
        /// The writer is making progress: ask again an interval later.
        case scheduleStallCheck
        /// The queue gave the pause up (it drops and counts from now on), or the pause
        /// ended meanwhile: its resume is on its way, or not needed.
        case none
    }

    /// The queue answered whether it released the pause as stalled.
    func stallChecked(released: Bool) -> StallAnswerAction {
        released || !isPausedForPressure ? .none : .scheduleStallCheck
    }

    enum ResumeAction: Equatable {
        /// Answer the texts that waited, then handle the input's end if it came meanwhile;
        /// flush; pass on a held read.
        case resume(inputClosed: Bool, passOnRead: Bool)
        case none
    }

    /// The pressure eased. The handler cancels its stall check whatever this says.
    mutating func pressureRelieved(channelIsActive: Bool) -> ResumeAction {
        pauseEnded(.pressure(heldRead: false), channelIsActive: channelIsActive)
    }

    enum ReplyAction: Equatable {
        /// Write the reply, flush, turn autoRead back on, then resume as `resume` says.
        case writeAndResume(ResumeAction)
        /// The connection closed or went inactive meanwhile: drop the reply.
        case none
    }

    /// The reply computed off the event loop arrived.
    mutating func replyArrived(channelIsActive: Bool) -> ReplyAction {
        let resume = pauseEnded(.awaitingReply, channelIsActive: channelIsActive)
        return resume == .none ? .none : .writeAndResume(resume)
    }

    /// The pause of `kind` ends, if it is the one in force.
    private mutating func pauseEnded(_ kind: Pause, channelIsActive: Bool) -> ResumeAction {
        guard case .open(var open) = state, let pause = open.pause else { return .none }
        switch (pause, kind) {
        case (.awaitingReply, .awaitingReply), (.pressure, .pressure):
            break
        default:
            return .none
        }
        open.pause = nil
        open.resumedSinceIdleCheck = true
        let inputClosed = open.inputClosedWhilePaused
        open.inputClosedWhilePaused = false
        state = .open(open)
        guard channelIsActive else { return .none }
        if case .pressure(let heldRead) = pause {
            return .resume(inputClosed: inputClosed, passOnRead: heldRead)
        }
        return .resume(inputClosed: inputClosed, passOnRead: false)
    }

    enum WritabilityAction: Equatable {
        /// The client read its output: answer the texts that waited, then flush.
        case answerWaiting
        case none
    }

    /// The channel's writability changed (the unread-output bound).
    func writabilityChanged(isWritable: Bool) -> WritabilityAction {
        isWritable && mayAnswer ? .answerWaiting : .none
    }

    // MARK: Closing and timeouts

    enum CloseAction: Equatable {
        /// Disarm the timers, send what was gathered, and close once every write before
        /// the close has left.
        case closeAfterWrites
        /// Closing already.
        case none
    }

    /// The connection will take no more requests.
    mutating func close() -> CloseAction {
        guard !isClosing else { return .none }
        state = .closing
        return .closeAfterWrites
    }

    enum ReadCompleteAction: Equatable {
        /// Flush the answers to the read, then do what `then` says.
        case flush(then: AfterFramingAction)
        /// Closing: what is left is flushed by the close.
        case none
    }

    /// A read ended: its texts were answered (or wait).
    func readComplete(hasPartialText: Bool) -> ReadCompleteAction {
        isClosing ? .none : .flush(then: afterFraming(hasPartialText: hasPartialText))
    }

    enum IdleAction: Equatable {
        case close
        /// Not idle after all: `IdleStateHandler` looks again a timeout later.
        case rearm
        case none
    }

    /// Nothing was read for `--idle-timeout` (NIO's `IdleStateHandler` says so). A
    /// connection that waits for a reply, holds part of a request (the read timeout's
    /// case) or a subscription is not idle, nor one answered since the last look.
    mutating func idleTimedOut(hasPartialText: Bool, holdsSubscription: Bool) -> IdleAction {
        guard case .open(var open) = state else { return .none }
        let resumed = open.resumedSinceIdleCheck
        open.resumedSinceIdleCheck = false
        state = .open(open)
        if open.pause != nil || resumed || hasPartialText || holdsSubscription {
            return .rearm
        }
        return .close
    }
}
