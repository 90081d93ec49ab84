import NIOCore

/// How far the change log has got: what the answers wait for (``AnswerGateHandler``).
package struct AnswerGate: Sendable {
    /// The sequence number of the last change appended.
    package var appended: @Sendable () -> UInt64
    /// The sequence number of the last change written (and synced, when the mode says so).
    package var written: @Sendable () -> UInt64
    /// Calls the closure, on any thread, once the sequence number is written.
    package var whenWritten: @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void
    /// Has what is appended now written (and synced, when the mode says so), at the end of
    /// an event loop's turn: on the calling event loop when the mode lets an event loop
    /// write (`log-everysec`: one `write()`, never a sync) and no one else is writing, else
    /// by the log's thread. Never a wait.
    package var commit: @Sendable () -> Void

    package init(
        appended: @escaping @Sendable () -> UInt64, written: @escaping @Sendable () -> UInt64,
        whenWritten: @escaping @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void,
        commit: @escaping @Sendable () -> Void = {}
    ) {
        self.appended = appended
        self.written = written
        self.whenWritten = whenWritten
        self.commit = commit
    }
}

/// Holds a connection's outgoing bytes until every change appended to the change log
/// before they were written is in the log: an answer never leaves ahead of its change.
///
/// The sequence an answer waits for is the log's last at the time it is written — every
/// change made before it, this connection's among them — so the event loop never asks
/// which request made which change. The log is committed once at the end of the event
/// loop's turn, after every connection it read in that turn has flushed, so that the
/// answers of all of them wait for one write of the log (group commit), and with `log`
/// for one `fdatasync`. Under `log-everysec` the event loop makes that write itself, one
/// `write()` to the page cache, when no other thread is writing (measured:
/// docs/performance.md, "Durability"); it never syncs, opens a segment or waits: held
/// bytes leave, in order, once the log says they may.
final class AnswerGateHandler: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let gate: AnswerGate
    private var held = CircularBuffer<(data: NIOAny, promise: EventLoopPromise<Void>?, sequence: UInt64)>()
    /// The sequence a callback is registered for; 0 for none.
    private var awaited: UInt64 = 0
    /// A commit is asked for at the end of this turn of the event loop.
    private var commitAsked = false

    init(gate: AnswerGate) {
        self.gate = gate
    }

    /// Held until the flush, after which the turn's commit writes the log for every answer held.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let needed = gate.appended()
        if held.isEmpty, gate.written() >= needed {
            context.write(data, promise: promise)
            return
        }
        held.append((data, promise, needed))
    }

    /// Asks for the turn's commit when the log holds changes not yet written — the
    /// answers held, or a change that has none (a JSON-RPC notification) — then lets go
    /// what it may; ``release(context:)`` flushes that and waits for the rest.
    func flush(context: ChannelHandlerContext) {
        if gate.written() < gate.appended() { askForCommit(context: context) }
        guard !held.isEmpty else { return context.flush() }
        // The turn's commit releases them: waiting now would have them released by whichever
        // loop writes first, a hop to this one from another thread.
        guard !commitAsked else { return }
        release(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        while let entry = held.popFirst() {
            entry.promise?.fail(ChannelError.ioOnClosedChannel)
        }
        // A change whose answer never came to a flush is committed all the same.
        if gate.written() < gate.appended() { gate.commit() }
    }

    /// Commits the log once the event loop has run every read of this turn — the tasks
    /// `execute` queues run after them; one per connection that flushed, all but the first
    /// finding nothing left to write — then lets go what it may and waits for the rest.
    private func askForCommit(context: ChannelHandlerContext) {
        guard !commitAsked else { return }
        commitAsked = true
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let gate = self.gate
        context.eventLoop.execute {
            let (handler, context) = loopBound.value
            handler.commitAsked = false
            gate.commit()
            handler.release(context: context)
        }
    }

    private func waitFor(_ sequence: UInt64, context: ChannelHandlerContext) {
        guard awaited < sequence else { return }
        awaited = sequence
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        gate.whenWritten(sequence) {
            // Here when the loop's own commit wrote it: on, within the same turn.
            if eventLoop.inEventLoop {
                let (handler, context) = loopBound.value
                return handler.release(context: context)
            }
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.release(context: context)
            }
        }
    }

    /// Passes on what may leave now, and waits again for the rest.
    private func release(context: ChannelHandlerContext) {
        let written = gate.written()
        if awaited <= written { awaited = 0 }
        var released = false
        while let first = held.first, first.sequence <= written {
            held.removeFirst()
            context.write(first.data, promise: first.promise)
            released = true
        }
        if released { context.flush() }
        if let last = held.last {
            waitFor(last.sequence, context: context)
        }
    }
}
