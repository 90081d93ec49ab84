import Foundation
import HeraldProtocol
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import HeraldServer

/// A response goes to the connections that listened for it, and one none of them took —
/// each closed between the state's lock and the write — comes back to be kept.
@Suite struct ResponseSubscriptionsTests {
    private static let app = "org.example.chat"

    private static let response = NotificationResponse(
        app: app, identifier: "n-1", actionIdentifier: "default", userText: nil,
        notification: HeraldNotification(
            identifier: "n-1", app: app, content: NotificationContent(title: "Ana"), delivery: Delivery(presentation: .alert),
            state: .delivered, receivedAt: Date(timeIntervalSince1970: 1_795_356_120)
        ),
        respondedAt: Date(timeIntervalSince1970: 1_795_356_180)
    )

    /// A subscribed connection on an embedded channel, connected (active).
    private func listener(
        _ registry: ConnectionRegistry, _ subscriptions: ResponseSubscriptions
    ) throws -> (EmbeddedChannel, ConnectionIdentity) {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/herald-test.sock")).wait()
        let identity = registry.makeIdentity()
        registry.add(channel, as: identity)
        subscriptions.subscribe(identity, uid: 1000, app: Self.app)
        return (channel, identity)
    }

    @Test func aListeningConnectionGetsTheLineAndNothingComesBack() throws {
        let registry = ConnectionRegistry()
        let subscriptions = ResponseSubscriptions(registry: registry)
        let (channel, identity) = try listener(registry, subscriptions)
        let returned = NIOLockedValueBox(0)
        subscriptions.deliver(Self.response, to: subscriptions.listeners(uid: 1000, app: Self.app)) {
            returned.withLockedValue { $0 += 1 }
        }
        let line = try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }
        #expect(line?.hasPrefix(#"{"jsonrpc":"2.0","method":"notification-response""#) == true)
        #expect(line?.contains(#""identifier":"n-1""#) == true)
        #expect(returned.withLockedValue { $0 } == 0)
        #expect(subscriptions.listeners(uid: 1000, app: Self.app) == [identity])
        _ = try channel.finish()
    }

    @Test func aResponseWhoseOnlyListenerClosedBeforeTheWriteComesBack() throws {
        let registry = ConnectionRegistry()
        let subscriptions = ResponseSubscriptions(registry: registry)
        let (channel, identity) = try listener(registry, subscriptions)
        // The listener was asked for under the lock; the connection closed after it.
        let listeners = subscriptions.listeners(uid: 1000, app: Self.app)
        try channel.close().wait()
        let returned = NIOLockedValueBox(0)
        subscriptions.deliver(Self.response, to: listeners) { returned.withLockedValue { $0 += 1 } }
        channel.embeddedEventLoop.run()  // the failed write's callback
        #expect(returned.withLockedValue { $0 } == 1)
        // Gone from the registry too (its close was handled): still handed back, once.
        registry.remove(identity)
        subscriptions.deliver(Self.response, to: listeners) { returned.withLockedValue { $0 += 1 } }
        #expect(returned.withLockedValue { $0 } == 2)
    }

    @Test func aResponseComesBackOnlyWhenNoListenerTookIt() throws {
        let registry = ConnectionRegistry()
        let subscriptions = ResponseSubscriptions(registry: registry)
        let (closed, _) = try listener(registry, subscriptions)
        let (open, _) = try listener(registry, subscriptions)
        let listeners = subscriptions.listeners(uid: 1000, app: Self.app)
        #expect(listeners.count == 2)
        try closed.close().wait()
        let returned = NIOLockedValueBox(0)
        subscriptions.deliver(Self.response, to: listeners) { returned.withLockedValue { $0 += 1 } }
        closed.embeddedEventLoop.run()
        open.embeddedEventLoop.run()
        #expect(returned.withLockedValue { $0 } == 0)
        #expect(try open.readOutbound(as: ByteBuffer.self) != nil)
        _ = try open.finish()
    }

    @Test func waitingResponsesAConnectionClosedOnComeBackOneByOne() throws {
        let registry = ConnectionRegistry()
        let subscriptions = ResponseSubscriptions(registry: registry)
        let (channel, identity) = try listener(registry, subscriptions)
        try channel.close().wait()
        var second = Self.response
        second.identifier = "n-2"
        let returned = NIOLockedValueBox<[String]>([])
        subscriptions.deliverPending([Self.response, second], to: identity) { response in
            returned.withLockedValue { $0.append(response.identifier) }
        }
        channel.embeddedEventLoop.run()
        #expect(returned.withLockedValue { $0 } == ["n-1", "n-2"])
    }
}
