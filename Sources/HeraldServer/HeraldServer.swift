import Foundation
import HeraldCore
import HeraldProtocol
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Herald's JSON-RPC server on a Unix stream socket, as a `Service`.
///
/// It serves until graceful shutdown (SIGTERM, SIGINT) or until `exitIdleAfter` passes
/// with no client connected; then it stops accepting, lets each connection finish the
/// request it is sending (bounded by `drainTimeout`), and returns once every response
/// has left.
public final class HeraldServer: Service, Sendable {
    public let configuration: ServerConfiguration
    public let environment: MethodEnvironment
    private let recorder: any ResultRecorder
    private let logger: Logger
    private let onReady: @Sendable (String) -> Void
    private let onStopping: @Sendable () -> Void
    private let registry = ConnectionRegistry()
    private let subscriptions: FocusSubscriptions

    /// - Parameter onReady: called once the socket accepts connections, with a one-line
    ///   description of where it listens (for `sd_notify` and the console).
    /// - Parameter onStopping: called when shutdown begins.
    public init(
        configuration: ServerConfiguration,
        environment: MethodEnvironment,
        recorder: any ResultRecorder,
        logger: Logger,
        onReady: @escaping @Sendable (String) -> Void = { _ in },
        onStopping: @escaping @Sendable () -> Void = {}
    ) {
        self.configuration = configuration
        self.environment = environment
        self.recorder = recorder
        self.logger = logger
        self.onReady = onReady
        self.onStopping = onStopping
        self.subscriptions = FocusSubscriptions(registry: registry)
    }

    public var statistics: ServerStatistics { environment.statistics }

    public func run() async throws {
        let processor = RequestProcessor(
            methods: .herald(environment, subscriptions: subscriptions),
            limits: configuration.limits,
            statistics: environment.statistics,
            recorder: recorder
        )
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        let serverChannel: any Channel
        do {
            serverChannel = try await bind(group: group, processor: processor)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let place: String
        switch configuration.listening {
        case .activated(let fd): place = "socket-activated fd \(fd)"
        case .path(let path, let mode):
            try SocketPath.applyMode(mode, to: path)
            place = path
        }
        logger.info("serving", metadata: ["socket": "\(place)"])
        onReady(place)

        let stopSignal = AsyncStream<Void>.makeStream()
        let ticker = Task { await self.tick(stop: stopSignal.continuation) }
        await withGracefulShutdownHandler {
            for await _ in stopSignal.stream { break }
        } onGracefulShutdown: {
            stopSignal.continuation.finish()
        }
        ticker.cancel()

        onStopping()
        logger.info("stopping: no new connections; finishing in-flight requests")
        try? await serverChannel.close()
        if case .path(let path, _) = configuration.listening {
            unlink(path)
        }
        await drainConnections()
        try? await group.shutdownGracefully()
    }

    /// Every second: end a Focus whose `until` has passed (telling subscribers), and stop
    /// when the daemon has been idle for `exitIdleAfter`.
    private func tick(stop: AsyncStream<Void>.Continuation) async {
        var idleSince: ContinuousClock.Instant? = .now
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = environment.clock.now()
            let expired = environment.state.withLock(reportingChange: { state -> (value: HeraldState?, changed: Bool) in
                state.expireFocus(now: now) ? (state, true) : (nil, false)
            })
            if let expired {
                subscriptions.refresh(from: expired, now: now)
            }
            guard configuration.exitIdleAfter > 0 else { continue }
            if environment.statistics.openConnections > 0 {
                idleSince = nil
            } else if let since = idleSince {
                if ContinuousClock.now - since >= .milliseconds(Int64(configuration.exitIdleAfter * 1000)) {
                    logger.info("idle for \(configuration.exitIdleAfter) s with no client: exiting")
                    stop.yield()
                    stop.finish()
                    return
                }
            } else {
                idleSince = .now
            }
        }
    }

    private func bind(group: MultiThreadedEventLoopGroup, processor: RequestProcessor) async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                self.initialize(channel, processor: processor)
            }
        switch configuration.listening {
        case .activated(let fd):
            return try await bootstrap.withBoundSocket(fd).get()
        case .path(let path, _):
            try SocketPath.prepare(path)
            return try await bootstrap.bind(unixDomainSocketPath: path).get()
        }
    }

    /// Sets up an accepted connection: its credentials, the connection limit, its handlers.
    private func initialize(_ channel: any Channel, processor: RequestProcessor) -> EventLoopFuture<Void> {
        let statistics = environment.statistics
        guard statistics.openConnection(limit: configuration.limits.maxConnections) else {
            let error = RPCError(
                .serverBusy,
                reason: "Herald serves \(configuration.limits.maxConnections) connections already; try again shortly.",
                extraData: ["limit": .number(JSONNumber(configuration.limits.maxConnections))]
            )
            let line = processor.standaloneError(error, context: RequestContext(caller: Self.unknownCaller))
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: line))
            }
        }
        let identity = registry.makeIdentity()
        registry.add(channel, as: identity)
        channel.closeFuture.whenComplete { [registry, subscriptions] _ in
            registry.remove(identity)
            subscriptions.remove(identity)
            statistics.closeConnection()
        }
        let policy = configuration.administratorPolicy
        return PeerCredentials.read(from: channel).flatMap { peer in
            let context = RequestContext(caller: policy.caller(for: peer), connection: identity)
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers([
                    BackPressureHandler(),
                    ConnectionHandler(processor: processor, context: context),
                ])
            }
        }
    }

    /// Asks every connection to finish and close, and waits for them, at most `drainTimeout`.
    private func drainConnections() async {
        let channels = registry.all
        for channel in channels {
            channel.pipeline.fireUserInboundEventTriggered(DrainConnection())
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.drainTimeout * 1000))
        for channel in channels {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { break }
            _ = try? await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await channel.closeFuture.get() }
                group.addTask { try await Task.sleep(for: remaining) }
                try await group.next()
                group.cancelAll()
            }
        }
        for channel in registry.all {
            try? await channel.close()
        }
    }

    private static let unknownCaller = Caller(uid: UInt32.max, gid: UInt32.max, pid: 0, isAdministrator: false)
}
