import HeraldCore
import HeraldProtocol
import NIOCore

/// Output: the responses to one read gathered into one buffer and written once, at the
/// flush that ends the read (or every ``outputBytesPerWrite``).
extension ConnectionHandler {
    /// Adds a response to the output the next flush sends; past ``outputBytesPerWrite`` it
    /// is passed on at once, so that the channel's writability (the unread-output bound)
    /// keeps up with it.
    func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        if bytes.count >= Self.outputBytesPerWrite {
            sendOutput(context: context)
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
            return
        }
        if output == nil {
            output = context.channel.allocator.buffer(capacity: Self.outputBufferCapacity)
        }
        output!.writeBytes(bytes)
        if output!.readableBytes >= Self.outputBytesPerWrite { sendOutput(context: context) }
    }

    /// Passes the responses gathered so far on to the channel, unflushed.
    func sendOutput(context: ChannelHandlerContext) {
        guard let gathered = output else { return }
        output = nil
        context.write(wrapOutboundOut(gathered), promise: nil)
    }

    /// Sends the gathered responses and flushes.
    func flushOutput(context: ChannelHandlerContext) {
        sendOutput(context: context)
        context.flush()
    }

    /// A line written to this connection by someone else (a subscription's notification)
    /// leaves after the responses gathered before it.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        sendOutput(context: context)
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        flushOutput(context: context)
    }
}
