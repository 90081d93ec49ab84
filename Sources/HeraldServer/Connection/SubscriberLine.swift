import HeraldProtocol
import Logging
import NIOCore

/// Sends one JSON-RPC notification line to a subscriber (`focus-changed`, a presenter's
/// events), bounded like responses: a subscriber whose unread output is past
/// `--max-unread-bytes` has stopped reading, and is closed with the reason logged instead
/// of having lines buffered for it without end.
enum SubscriberLine {
    /// `{"jsonrpc":"2.0","method":…,"params":…}` and a newline.
    static func line(method: String, params: JSONValue) -> ByteBuffer {
        line(method: method) { params.write(to: &$0) }
    }

    /// The same for params that write themselves (a notification, a response), with no
    /// `JSONValue` between.
    static func line(method: String, params: some JSONDirectEncodable) -> ByteBuffer {
        line(method: method) { params.writeJSON(to: &$0) }
    }

    private static func line(method: String, writingParams writeParams: (inout [UInt8]) -> Void) -> ByteBuffer {
        var bytes = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
        JSONValue.string(method).write(to: &bytes)
        bytes.append(contentsOf: #","params":"#.utf8)
        writeParams(&bytes)
        bytes.append(contentsOf: "}\n".utf8)
        return ByteBuffer(bytes: bytes)
    }

    /// Writes `line` to `connection`, or closes it when it does not read; `kind` names the
    /// subscriber in the log. `undelivered` is called, once, when the line did not reach
    /// the socket: the connection is gone or closed before the write, or does not read.
    static func send(
        _ line: ByteBuffer, to connection: ConnectionIdentity, registry: ConnectionRegistry,
        statistics: ServerStatistics?, logger: Logger, kind: String,
        undelivered: (@Sendable () -> Void)? = nil
    ) {
        guard let channel = registry.channel(connection) else {
            undelivered?()
            return
        }
        guard channel.isWritable else {
            closeUnread(
                channel, connection: connection, statistics: statistics, logger: logger,
                reason: "closing a \(kind) that does not read: its unread output is past --max-unread-bytes")
            undelivered?()
            return
        }
        guard let undelivered else {
            channel.writeAndFlush(line, promise: nil)
            return
        }
        guard channel.isActive else {
            undelivered()
            return
        }
        // It may still close before the write runs on its event loop: the write then fails.
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenFailure { _ in undelivered() }
        channel.writeAndFlush(line, promise: written)
    }

    /// Closes a subscriber that does not read, logging `reason` and counting it
    /// (`connections.closedUnread`). Decided on the connection's event loop, where closing
    /// makes it inactive at once: lines sent from several threads to a connection that does
    /// not read close it, log it and count it once.
    static func closeUnread(
        _ channel: any Channel, connection: ConnectionIdentity, statistics: ServerStatistics?, logger: Logger, reason: String
    ) {
        channel.eventLoop.execute {
            guard channel.isActive else { return }
            logger.warning("\(reason)", metadata: ["connection": "\(connection.number)"])
            statistics?.recordUnreadClose()
            channel.close(promise: nil)
        }
    }
}
