import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Herald's JSON-RPC server on a Unix stream socket, as a `Service`.
///
/// It serves until graceful shutdown (SIGTERM, SIGINT) or until `exitIdleAfter` passes
/// with no client connected and nothing due; then it stops accepting, lets each
/// connection finish the request it is sending (bounded by `drainTimeout`), and returns
/// once every response has left.
package final class HeraldServer: Service, Sendable {
    package let configuration: ServerConfiguration
    package let environment: MethodEnvironment
    private let recorder: any ResultRecorder
    private let logger: Logger
    private let onReady: @Sendable (String) -> Void
    private let onStopping: @Sendable () -> Void
    private let onIdleExit: @Sendable (Double) -> Void
    private let registry = ConnectionRegistry()
    private let subscriptions: FocusSubscriptions
    private let presenters: NotificationPresenters
    private let responses: ResponseSubscriptions
    private let holds: FocusHolds
    private let grants = GrantRevocations()
    private let memoryTrim: MemoryTrim
    /// When the last connection closed (monotonic): where an idle stretch begins.
    private let lastClosed = NIOLockedValueBox(ContinuousClock.now)

    /// - Parameter onReady: called once the socket accepts connections, with a one-line
    ///   description of where it listens (for `sd_notify` and the console).
    /// - Parameter onIdleExit: called before `onStopping` when the server stops because it
    ///   was idle for `exitIdleAfter` seconds, with that figure.
    /// - Parameter onStopping: called when shutdown begins.
    package init(
        configuration: ServerConfiguration,
        environment: MethodEnvironment,
        recorder: any ResultRecorder,
        logger: Logger,
        onReady: @escaping @Sendable (String) -> Void = { _ in },
        onIdleExit: @escaping @Sendable (Double) -> Void = { _ in },
        onStopping: @escaping @Sendable () -> Void = {}
    ) {
        self.configuration = configuration
        self.environment = environment
        self.recorder = recorder
        self.logger = logger
        self.onReady = onReady
        self.onStopping = onStopping
        self.onIdleExit = onIdleExit
        self.subscriptions = FocusSubscriptions(registry: registry, statistics: environment.statistics, logger: logger)
        self.presenters = NotificationPresenters(
            registry: registry, statistics: environment.statistics, logger: logger, maxUnreadBytes: configuration.limits.maxUnreadBytes
        )
        self.responses = ResponseSubscriptions(registry: registry, statistics: environment.statistics, logger: logger)
        self.holds = FocusHolds(registry: registry)
        self.memoryTrim = MemoryTrim(alarm: environment.state.dueAlarm, clock: environment.clock) { [logger] unmapped in
            logger.debug("at rest: code unmapped", metadata: ["kilobytes": "\(unmapped.map(String.init) ?? "unknown")"])
        }
    }

    /// What the method handlers are given, for work of theirs done outside a request.
    private var services: MethodServices {
        MethodServices(
            environment: environment, subscriptions: subscriptions, presenters: presenters, responses: responses, holds: holds, grants: grants)
    }

    /// The daemon's alarm: set for the next thing due in the state, rung early by changes.
    package var dueAlarm: DueAlarm { environment.state.dueAlarm }

    /// Delivers, one summary per uid, the scheduled notifications whose summary time has
    /// come by `now`, and again the snoozed ones whose time has come; journals each summary
    /// and each return and tells the presenters; returns how many notifications. The
    /// alarm's round calls it on time, and the daemon once at start, before serving, for a
    /// time that passed while it was stopped.
    @discardableResult
    package func deliverDueSummaries(now: Date) -> Int {
        let (summaries, returned) = environment.capturingTick(ChangeReplay.summariesTick, now: now) {
            environment.state.withLock(unsharingListOf: nil, reportingChange: { state in
                ChangeReplay.deliverDue(&state, now: now)
            })
        }
        // One burst: a presenter that falls behind in it is told what it missed, not closed.
        let burst = presenters.newBurst()
        for summary in summaries {
            environment.recordSummary(summary)
            presenters.summaryDelivered(summary, burst: burst)
        }
        for delivered in returned { environment.recordSnoozeEnded(delivered) }
        presenters.delivered(returned, burst: burst)
        return summaries.reduce(0) { $0 + $1.notifications.count } + returned.count
    }

    package var statistics: ServerStatistics { environment.statistics }

    /// Makes every uid's Focus change due by `now` (an `until` passed, a schedule window
    /// started or ended), and any a request made on its way; journals each and tells the
    /// subscribers whose status changed. Cheap when nothing is due (the earliest change
    /// of each uid is kept); the alarm's round calls it, off the event loops.
    package func advanceFocuses(now: Date) {
        changeFocuses(as: ChangeReplay.focusesTick, now: now) { $0.advanceFocuses(now: now) }
    }

    /// Ends the Focus holds the change log replayed, and a Focus a hold kept on in the
    /// snapshot, as their connections' close would have: a restart closes every
    /// connection. The daemon calls it once at start, before serving.
    package func endHoldsOfTheRunBefore(now: Date) {
        changeFocuses(as: ChangeReplay.focusHoldsTick, now: now) { ChangeReplay.endHolds(&$0, now: now) }
    }

    /// Runs heraldd's own Focus change `body` (true when it changed a Focus) as `tick`;
    /// journals the changes and digests, and tells the subscribers and presenters.
    private func changeFocuses(as tick: String, now: Date, _ body: (inout HeraldState) -> Bool) {
        let changed = environment.capturingTick(tick, now: now) {
            environment.state.withLock(reportingChange: { state -> (value: ([FocusChange], FocusView, [FocusDigest])?, changed: Bool) in
                guard body(&state) else { return (nil, false) }
                return ((state.takeFocusChanges(), state.focusView, state.takeFocusDigests()), true)
            })
        }
        if let (changes, view, digests) = changed {
            environment.reportFocusChanges(changes, view: view, now: now, subscriptions: subscriptions)
            environment.reportFocusDigests(digests, presenters: presenters)
        }
    }

    /// Forgets what `--retention` and `--undo-window` let go of by `now`, in steps.
    package func pruneExpired(now: Date) {
        environment.capturingTick(ChangeReplay.pruneTick, now: now) { ChangeReplay.prune(environment.state, now: now) }
    }

    /// The alarm's round at `now`: makes the Focus changes, summaries and snooze ends due,
    /// prunes, trims memory after large work or at rest; returns when the next thing is due.
    package func runDueWork(now: Date) -> Date? {
        advanceFocuses(now: now)
        deliverDueSummaries(now: now)
        pruneExpired(now: now)
        memoryTrim.trimIfDue(now: now)
        let next = environment.state.read { $0.nextDue }
        guard let restCheck = memoryTrim.nextDue else { return next }
        return min(next ?? restCheck, restCheck)
    }

    package func run() async throws {
        let processor = RequestProcessor(
            methods: .herald(environment, subscriptions: subscriptions, presenters: presenters, responses: responses, holds: holds, grants: grants),
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
        case .activated(let fd): place = SocketPath.boundPath(of: fd).map { "\($0) (socket-activated fd \(fd))" } ?? "socket-activated fd \(fd)"
        case .path(let path, let mode):
            try SocketPath.applyMode(mode, to: path)
            place = path
        }
        logger.debug("listening", metadata: ["backlog": "\(listeningBacklog.withLockedValue { $0 })"])
        logger.info("serving", metadata: ["socket": "\(place)"])
        onReady(place)

        let stopSignal = AsyncStream<Void>.makeStream()
        // The alarm's rounds are a child of the server's task: they run where it runs (a
        // test's own executor, too), and end with it.
        await withDiscardingTaskGroup { rounds in
            rounds.addTask { await self.sleepUntilDue(stop: stopSignal.continuation, listener: serverChannel, group: group) }
            await withGracefulShutdownHandler {
                for await _ in stopSignal.stream { break }
            } onGracefulShutdown: {
                stopSignal.continuation.finish()
            }
            rounds.cancelAll()
        }

        onStopping()
        logger.info("stopping: no new connections; finishing in-flight requests")
        // Stop accepting, but keep the listening channel open until the connections are
        // drained: NIO closes a connection it accepted whose listener closed before the
        // connection was set up, and that connection's request would be lost.
        try? await serverChannel.setOption(ChannelOptions.autoRead, value: false).get()
        if case .path(let path, _) = configuration.listening {
            unlink(path)
        }
        await drainConnections(group: group)
        try? await serverChannel.close()
        try? await group.shutdownGracefully()
    }

    /// Sleeps until the next thing due, does it, and plans again; stops the daemon once it
    /// is idle (``idleExitAllowed(now:)``) and no connection came while it stopped
    /// accepting. Nothing wakes it at rest but what is due (docs/operations.md, "At rest").
    private func sleepUntilDue(stop: AsyncStream<Void>.Continuation, listener: any Channel, group: MultiThreadedEventLoopGroup) async {
        let clock = environment.clock
        // What fell due while heraldd was stopped is done by the restore of the store, once
        // it is in; the rounds begin after (a stop meanwhile waits for the restore too).
        await environment.state.storeRestore.finished()
        while !Task.isCancelled {
            let now = clock.now()
            var horizon = Self.horizon(next: runDueWork(now: now), now: now)
            if let idleEnds = idleEnds(now: now) {
                if idleEnds > now {
                    horizon = min(horizon, idleEnds)
                } else if idleExitAllowed(now: now), await stopAcceptingIfStillIdle(listener, group: group) {
                    onIdleExit(configuration.exitIdleAfter)
                    stop.yield()
                    stop.finish()
                    return
                }
                // Otherwise a Focus change, summary or snooze end is due within the idle
                // time (the horizon is at most then), or a connection came: serve on.
            }
            await dueAlarm.sleep(until: horizon, on: clock)
        }
    }

    /// When the idle time ends with no connection opened meanwhile; nil without
    /// `exitIdleAfter`, or while a connection is open (its close rings the alarm).
    private func idleEnds(now: Date) -> Date? {
        guard configuration.exitIdleAfter > 0, environment.statistics.openConnections == 0, registry.entries.isEmpty else { return nil }
        let idle = ContinuousClock.now - lastClosed.withLockedValue { $0 }
        let idleSeconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        return now.addingTimeInterval(configuration.exitIdleAfter - idleSeconds)
    }

    /// Whether nothing a person would see happen is due within the idle time: a Focus
    /// change, a summary time or a snooze's end due later is done by the next start before
    /// its first answer, and an expiry only forgets.
    private func idleExitAllowed(now: Date) -> Bool {
        guard let next = environment.state.read({ $0.nextEventDue }) else { return true }
        return next > now.addingTimeInterval(configuration.exitIdleAfter)
    }

    /// Stops accepting, then looks again: true when still no connection came, so that the
    /// daemon may leave; else accepts again and returns false. A connection the kernel
    /// queues after this stays in the listening socket's backlog, which under socket
    /// activation systemd keeps and hands to the next start.
    private func stopAcceptingIfStillIdle(_ listener: any Channel, group: MultiThreadedEventLoopGroup) async -> Bool {
        let closedBefore = lastClosed.withLockedValue { $0 }
        try? await listener.setOption(ChannelOptions.autoRead, value: false).get()
        // An accept under way finishes on the listener's loop, its connection's set-up on
        // its own: two passes through every loop see both done.
        for _ in 0..<2 {
            for loop in group.makeIterator() {
                try? await loop.submit {}.get()
            }
        }
        if registry.entries.isEmpty, environment.statistics.openConnections == 0, lastClosed.withLockedValue({ $0 }) == closedBefore {
            return true
        }
        try? await listener.setOption(ChannelOptions.autoRead, value: true).get()
        return false
    }

    /// The longest the daemon sleeps with nothing due: its one bound on a wall clock's drift
    /// from the monotonic clock its sleeps are measured on. A step of the wall clock (set by
    /// hand or by NTP, or a resume from suspend) wakes it at once instead (``DueAlarm/ring()``).
    package static let longestSleep: TimeInterval = 3600

    /// Until when the daemon sleeps after its round at `now`, with `next` due next: then,
    /// or for ``longestSleep`` when nothing is due sooner. Something still due after the
    /// round that should have done it is tried again a second later, not in a spin.
    static func horizon(next: Date?, now: Date) -> Date {
        guard let next else { return now.addingTimeInterval(longestSleep) }
        guard next > now else { return now.addingTimeInterval(1) }
        return min(next, now.addingTimeInterval(longestSleep))
    }

    private func bind(group: MultiThreadedEventLoopGroup, processor: RequestProcessor) async throws -> any Channel {
        let unread = max(2, configuration.limits.maxUnreadBytes)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: configuration.listenBacklog)
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: configuration.acceptBatch)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark,
                value: ChannelOptions.Types.WriteBufferWaterMark(low: unread / 2, high: unread)
            )
            .childChannelInitializer { channel in
                self.initialize(channel, processor: processor)
            }
        switch configuration.listening {
        case .activated(let fd):
            // NIO listens again with 128; keep the backlog systemd listened with.
            let handed = ListenBacklog.current(of: fd) ?? configuration.listenBacklog
            let channel = try await bootstrap.withBoundSocket(fd).get()
            try ListenBacklog.apply(handed, to: fd)
            listeningBacklog.withLockedValue { $0 = handed }
            return channel
        case .path(let path, _):
            try SocketPath.prepare(path)
            listeningBacklog.withLockedValue { $0 = configuration.listenBacklog }
            do {
                return try await bootstrap.bind(unixDomainSocketPath: path).get()
            } catch let error as IOError {
                throw ListeningError("Cannot bind the socket \(path): \(String(cString: strerror(error.errnoCode))).")
            }
        }
    }

    /// Sets up an accepted connection: its credentials, the connection limits, its handlers.
    private func initialize(_ channel: any Channel, processor: RequestProcessor) -> EventLoopFuture<Void> {
        let statistics = environment.statistics
        let limits = configuration.limits
        let identity = registry.makeIdentity()
        registry.add(channel, as: identity)
        let policy = configuration.administratorPolicy
        let gate = configuration.answerGate
        let services = self.services
        let exitsWhenIdle = configuration.exitIdleAfter > 0
        return PeerIdentity.read(from: channel).flatMap {
            [registry, subscriptions, presenters, responses, holds, memoryTrim, lastClosed, dueAlarm] peer in
            let caller = policy.caller(for: peer)
            if peer.app == .unconfirmed {
                registry.remove(identity)
                let line = processor.standaloneError(Self.unconfirmedRefusal, context: RequestContext(caller: caller))
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: line))
                }
            }
            let admission = statistics.openConnection(
                uid: caller.uid,
                isAdministrator: caller.isAdministrator,
                limit: limits.maxConnections,
                reservedForAdministrators: limits.adminConnections,
                perUID: limits.maxConnectionsPerUID
            )
            if let refusal = Self.refusal(admission, uid: caller.uid) {
                registry.remove(identity)
                let line = processor.standaloneError(refusal, context: RequestContext(caller: caller))
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RefusalHandler(line: line))
                }
            }
            channel.closeFuture.whenComplete { _ in
                registry.remove(identity)
                subscriptions.remove(identity)
                // A presenter's outbox freed: its memory goes back at the alarm's next trim.
                if presenters.remove(identity) > 0 { memoryTrim.largeWorkDone() }
                responses.remove(identity)
                ReleaseFocusHoldMethod.releaseClosed(holds.take(identity), services)
                services.state.withLock { $0.dropGrantHolder(connection: identity.number) }
                statistics.closeConnection(uid: caller.uid)
                if exitsWhenIdle {
                    // An idle stretch may begin: the alarm plans its end.
                    lastClosed.withLockedValue { $0 = .now }
                    dueAlarm.ring()
                }
            }
            let context = RequestContext(caller: caller, connection: identity)
            let hooks = ConnectionHooks(
                holdsSubscription: {
                    subscriptions.holds(identity) || presenters.holds(identity) || responses.holds(identity) || holds.holds(identity)
                },
                closedIdle: { statistics.recordIdleClose() },
                largeWorkDone: { memoryTrim.largeWorkDone() },
                requestsRead: { memoryTrim.requestsRead() }
            )
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                    [BackPressureHandler()] + (gate.map { [AnswerGateHandler(gate: $0)] } ?? [])
                        + ConnectionHandler.pipeline(processor: processor, context: context, hooks: hooks)
                )
            }
        }
    }

    /// The error refusing a connection whose peer's app could not be confirmed: served as
    /// the person, a sandboxed app that exited and left its pid to another process would gain
    /// the person's rights.
    private static let unconfirmedRefusal = RPCError(
        .permissionDenied,
        reason: "Herald could not confirm which app this connection's process is: it exited while Herald looked. Connect from a running process."
    )

    /// The error refusing a connection, or nil when it is admitted.
    private static func refusal(_ admission: ServerStatistics.Admission, uid: UInt32) -> RPCError? {
        switch admission {
        case .admitted:
            return nil
        case .serverFull(let limit):
            return RPCError(
                .serverBusy,
                reason: "Herald serves \(limit) connections already, the most open to this caller; try again shortly.",
                extraData: ["limit": .number(JSONNumber(limit))]
            )
        case .uidAtLimit(let limit):
            return RPCError(
                .serverBusy,
                reason:
                    "uid \(uid) holds \(limit) connections to Herald already, the most one uid may hold (--max-connections-per-uid); close one first.",
                extraData: ["limit": .number(JSONNumber(limit))]
            )
        }
    }

    /// Asks every connection to finish and close, and waits for them, at most `drainTimeout`.
    ///
    /// The listening socket accepts no more; connections it accepted just before may
    /// still be on their way to their event loops, so each loop is passed through first,
    /// and connections that turn up while draining are drained too. Connections still
    /// waiting in the kernel's backlog are not touched: the socket stays open in systemd,
    /// and the next heraldd accepts them.
    private func drainConnections(group: MultiThreadedEventLoopGroup) async {
        for _ in 0..<2 {
            for loop in group.makeIterator() {
                try? await loop.submit {}.get()
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.drainTimeout * 1000))
        var drained = Set<ConnectionIdentity>()
        while ContinuousClock.now < deadline {
            let open = registry.entries
            if open.isEmpty { break }
            for (identity, channel) in open where !drained.contains(identity) {
                drained.insert(identity)
                channel.pipeline.fireUserInboundEventTriggered(DrainConnection())
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        for channel in registry.all {
            try? await channel.close()
        }
    }

    /// The backlog the listening socket was given, for the log.
    private let listeningBacklog = NIOLockedValueBox<Int32>(0)
}
