import NIOCore

/// How far the change log has got: what the answers wait for (``AnswerGateHandler``).
package struct AnswerGate: Sendable {
    /// The sequence number of the last change appended.
    package var appended: @Sendable () -> UInt64
    /// The sequence number of the last change written (and synced, when the mode says so).
    package var written: @Sendable () -> UInt64
    /// Calls the closure, on any thread, once the sequence number is written.
    package var whenWritten: @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void
    /// Writes what is appended now, on the calling event loop, when the mode lets an event
    /// loop write (`log-everysec`: one `write()`, never a sync) and no one else is writing.
    package var writeNow: @Sendable () -> Void

    package init(
        appended: @escaping @Sendable () -> UInt64, written: @escaping @Sendable () -> UInt64,
        whenWritten: @escaping @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void,
        writeNow: @escaping @Sendable () -> Void = {}
    ) {
        self.appended = appended
        self.written = written
        self.whenWritten = whenWritten
        self.writeNow = writeNow
    }
}

/// Holds a connection's outgoing bytes until every change appended to the change log
/// before they were written is in the log: an answer never leaves ahead of its change.
///
/// The sequence an answer waits for is the log's last at the time it is written — every
/// change made before it, this connection's among them — so the event loop never asks
/// which request made which change, and the answers to one read wait for one write of
/// the log (group commit), made at the read's flush: answers passed on in pieces before
/// it (a read's answers past 16 KiB) share it. Under `log-everysec` the event loop makes
/// that write itself, one `write()` to the page cache, when no other thread is writing
/// (measured: docs/performance.md, "Durability"); it never syncs, opens a segment or
/// waits: held bytes leave, in order, once the log says they may.
final class AnswerGateHandler: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let gate: AnswerGate
    private var held = CircularBuffer<(data: NIOAny, promise: EventLoopPromise<Void>?, sequence: UInt64)>()
    /// The sequence a callback is registered for; 0 for none.
    private var awaited: UInt64 = 0

    init(gate: AnswerGate) {
        self.gate = gate
    }

    /// Held until the flush, which writes the log for every answer held meanwhile.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let needed = gate.appended()
        if held.isEmpty, gate.written() >= needed {
            context.write(data, promise: promise)
            return
        }
        held.append((data, promise, needed))
    }

    /// Writes the log for the answers held (one `write()` under `log-everysec`), then lets
    /// go what it may; ``release(context:)`` flushes that and waits for the rest.
    func flush(context: ChannelHandlerContext) {
        guard let last = held.last else { return context.flush() }
        if gate.written() < last.sequence { gate.writeNow() }
        release(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        while let entry = held.popFirst() {
            entry.promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    private func waitFor(_ sequence: UInt64, context: ChannelHandlerContext) {
        guard awaited < sequence else { return }
        awaited = sequence
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        gate.whenWritten(sequence) {
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
