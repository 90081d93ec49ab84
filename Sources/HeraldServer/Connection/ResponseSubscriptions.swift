import HeraldProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The connections that called `subscribe-responses`, each for apps of its own uid, told
/// `notification-response` as a person answers one of their notifications.
///
/// Whether a (uid, app) listens is asked under the state's lock by `respond-to-notification`,
/// and a connection subscribes under the same lock as it takes the waiting responses, so a
/// response is either sent or kept, never both or neither. Lines are bounded like
/// `focus-changed` (``SubscriberLine``): an app that stops reading is closed past
/// `--max-unread-bytes`.
final class ResponseSubscriptions: Sendable {
    private struct Listener: Hashable, Sendable {
        var uid: UInt32
        var app: String
    }

    /// Each connection's (uid, app)s.
    private let connections = NIOLockedValueBox<[ConnectionIdentity: Set<Listener>]>([:])
    private let registry: ConnectionRegistry
    private let statistics: ServerStatistics?
    private let logger: Logger

    init(registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd")) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
    }

    func subscribe(_ connection: ConnectionIdentity, uid: UInt32, app: String) {
        connections.withLockedValue { _ = $0[connection, default: []].insert(Listener(uid: uid, app: app)) }
    }

    func holds(_ connection: ConnectionIdentity) -> Bool {
        connections.withLockedValue { $0[connection] != nil }
    }

    func remove(_ connection: ConnectionIdentity) {
        _ = connections.withLockedValue { $0.removeValue(forKey: connection) }
    }

    /// How many (connection, app) subscriptions there are.
    var count: Int {
        connections.withLockedValue { $0.values.reduce(0) { $0 + $1.count } }
    }

    /// Whether a connection of (uid, app) is subscribed.
    func isListening(uid: UInt32, app: String) -> Bool {
        let listener = Listener(uid: uid, app: app)
        return connections.withLockedValue { all in all.values.contains { $0.contains(listener) } }
    }

    /// Sends `response` to every connection of (uid, app) subscribed.
    func deliver(_ response: NotificationResponse, uid: UInt32) {
        let listener = Listener(uid: uid, app: response.app)
        let recipients = connections.withLockedValue { all in all.compactMap { $0.value.contains(listener) ? $0.key : nil } }
        guard !recipients.isEmpty, let line = Self.line(response) else { return }
        for connection in recipients { send(line, to: connection) }
    }

    /// Sends the responses that waited to `connection`, after the answer to the request
    /// being handled on its event loop (the `subscribe-responses` result comes first).
    func deliverPending(_ responses: [NotificationResponse], to connection: ConnectionIdentity) {
        guard !responses.isEmpty, let channel = registry.channel(connection) else { return }
        let lines = responses.compactMap(Self.line)
        channel.eventLoop.execute { [self] in
            for line in lines { send(line, to: connection) }
        }
    }

    private func send(_ line: ByteBuffer, to connection: ConnectionIdentity) {
        SubscriberLine.send(line, to: connection, registry: registry, statistics: statistics, logger: logger, kind: "response subscriber")
    }

    private static func line(_ response: NotificationResponse) -> ByteBuffer? {
        guard let value = try? JSONValueEncoder().encode(response) else { return nil }
        return SubscriberLine.line(method: NotificationResponse.method, params: value)
    }
}
