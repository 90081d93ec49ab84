import HeraldProtocol
import NIOCore

/// Matches heraldd's answers to the calls waiting for them by `id`, and hands the
/// notifications (a `method` without `id`) on; on the connection's event loop.
final class AnswerRouter: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = Call
    typealias OutboundOut = ByteBuffer

    /// A request on its way out, with the promise its answer's `result` completes.
    struct Call: Sendable {
        var id: Int
        var text: ByteBuffer
        var answer: EventLoopPromise<JSONValue>
    }

    /// The deepest nesting read: deeper than anything heraldd writes.
    static let maximumDepth = 512

    private var waiting: [Int: EventLoopPromise<JSONValue>] = [:]
    private let notification: @Sendable (String, JSONValue) -> Void

    init(notification: @escaping @Sendable (String, JSONValue) -> Void) {
        self.notification = notification
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let call = unwrapOutboundIn(data)
        waiting[call.id] = call.answer
        context.write(wrapOutboundOut(call.text), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard let message = try? line.withUnsafeReadableBytes({ try JSONParser.parse($0, maxDepth: Self.maximumDepth) }),
            case .object = message
        else {
            context.fireErrorCaught(HeraldError(kind: .unreadable, message: "heraldd sent a line that is not a JSON-RPC object"))
            return
        }
        if message.member("id") == nil, let method = message.member("method")?.string {
            notification(method, message.member("params") ?? .null)
            return
        }
        // An error heraldd could not tie to a request (`"id": null`) concerns no call of ours.
        guard let id = message.member("id")?.integer, let answer = waiting.removeValue(forKey: id) else { return }
        if let error = message.member("error") {
            answer.fail(HeraldError(answer: error))
        } else {
            answer.succeed(message.member("result") ?? .null)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failWaiting(HeraldError(kind: .connectionLost, message: "heraldd closed the connection before answering"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failWaiting(error as? HeraldError ?? HeraldError(kind: .unreadable, message: "the connection failed: \(error)"))
        context.close(promise: nil)
    }

    private func failWaiting(_ error: HeraldError) {
        let answers = waiting.values
        waiting.removeAll()
        for answer in answers { answer.fail(error) }
    }
}
