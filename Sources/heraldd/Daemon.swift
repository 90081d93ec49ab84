import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldCore
import HeraldProtocol
import HeraldServer
import HeraldStorage
import HeraldSystemd
import Logging
import ServiceLifecycle

/// The daemon's parts wired together: journal writer, state and its snapshots, server, watchdog.
struct Daemon {
    let listening: ListeningOptions
    let limits: LimitOptions
    let rules: RuleOptions
    let storage: StorageOptions
    let target: LogTarget
    let writer: JournalWriter
    let logger: Logger
    /// The one source of time for the rules and the periodic work; its sleeps are the
    /// event loops' timers, not Dispatch's (``EventLoopClock``).
    let clock: any HeraldClock = EventLoopClock()

    init(
        listening: ListeningOptions,
        limits: LimitOptions,
        rules: RuleOptions,
        logging: LoggingOptions,
        storage: StorageOptions
    ) throws {
        self.listening = listening
        self.limits = limits
        self.rules = rules
        self.storage = storage
        target = logging.target ?? .console
        // Results are submitted on the event loops: a full queue drops and counts at once
        // (stats.journal.dropped, then one entry saying how many), it never makes a loop wait.
        let writer = JournalWriter(target: target)
        self.writer = writer
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, writer: writer) }
        self.logger = Logger(label: "heraldd")
    }

    func run() async throws {
        let notifier = ServiceNotifier()
        let folderLock = try lockStateFolder()
        defer { withExtendedLifetime(folderLock) {} }
        let writer = self.writer
        let changeBell = ChangeBell()
        let health = PersistenceHealth(folder: storage.folder, policy: storage.writeFailurePolicy, startedAt: clock.now()) { event in
            // A failed write begins the snapshot writer's retries, changes or not.
            if case .failed = event { changeBell.ring() }
            writer.submit(PersistenceJournal.entry(event))
            if case .recovered = event { folderLock.recordPidAgain() }
            notifier.status(Self.statusLine(event))
        }
        if let record = health.previousStop {
            writer.submit(PersistenceJournal.previousStopEntry(record, folder: storage.folder))
        }
        // Ahead of need: on a full disk the record of a failed final snapshot still fits.
        try? health.prepare()
        if let cause = folderLock.pidRecordFailure {
            health.recordFailure(cause: cause, at: clock.now(), unwrittenChanges: 0)
        }
        let (state, snapshots, recovery, log, replay) = try restoreState(health: health, changeBell: changeBell)
        let startup = StartupSummary(
            folder: storage.folder,
            restored: recovery.header,
            uncleanPredecessor: folderLock.uncleanPredecessor,
            previousStop: health.previousStop,
            writeFailure: health.failure,
            policy: health.policy,
            now: clock.now(),
            replay: replay,
            storeRestoresApart: recovery.store != nil
        )
        let server = try makeServer(
            notifier: notifier, state: state, snapshots: snapshots, health: health, log: log, startup: startup)
        // What fell due while heraldd was stopped (a Focus change, a summary time, a snooze's
        // end, an expiry; --exit-idle-time leaves them to this start): done once, before
        // serving, or before a request that needs the store is answered when it restores apart.
        if let pending = recovery.store {
            server.advanceFocuses(now: clock.now())
            restoreApart(pending, into: state, server: server, snapshot: recovery.path)
        } else {
            _ = server.runDueWork(now: clock.now())
        }
        // The holds of the heraldd before ended with its connections.
        server.endHoldsOfTheRunBefore(now: clock.now())
        // The snapshot service comes first so that it is shut down last, after the server
        // has drained: its final snapshot holds every acknowledged request.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(
                service: SnapshotService(
                    writer: snapshots,
                    source: SnapshotSource(
                        copy: { state.snapshotCopy() },
                        changeCount: { state.changeCount },
                        waitForChange: { count in await state.waitForChange(after: count) },
                        copyForSnapshot: Self.copyForSnapshot(state, log: log),
                        log: log
                    ),
                    interval: storage.snapshotInterval,
                    logger: logger,
                    clock: clock,
                    health: health,
                    // Normal priority for the copy under the state's lock, idle after it.
                    afterCopy: { WorkThread.lowerCallingThreadToIdle() },
                    startThread: { WorkThread.run(named: "herald-snapshot", priority: .normal, $0) }
                ),
                successTerminationBehavior: .gracefullyShutdownGroup
            ),
            .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: ClockStepService { server.dueAlarm.ring() }, successTerminationBehavior: .ignore),
        ]
        if let interval = ServiceNotifier.watchdogInterval() {
            services.append(
                .init(
                    service: WatchdogService(
                        notifier: notifier, interval: interval / 2, statistics: server.statistics,
                        lockWatch: StateLockWatch(state: state), health: health, logger: logger),
                    successTerminationBehavior: .ignore
                )
            )
        }
        // Last, so that it hears the shutdown first and bounds all of it.
        let lockWatch = StateLockWatch(state: state)
        let logger = self.logger
        services.append(
            .init(
                service: StopDeadline(afterStoreRestore: { state.storeRestore.whenFinished($0) }) {
                    writer.submit(
                        Self.lifecycleEntry(
                            "stopping took past \(StopDeadline.defaultBound.components.seconds) s (the state's lock held for \(lockWatch.heldFor.components.seconds) s): exiting now without the final snapshot, the last snapshot standing",
                            id: JournalMessageID.stopDeadlinePassed, priority: .critical))
                    writer.flush(timeout: .seconds(1))
                    _exit(1)
                },
                successTerminationBehavior: .ignore
            )
        )
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        do {
            try await group.run()
        } catch let error as ListeningError {
            throw refuse(error.description)
        }
        if health.finalFailure != nil {
            // Its crit entry is written: the pid stays in the lock, so that even without
            // state.unwritten the next start says this stop was not clean.
            writer.flush(timeout: .seconds(5))
            writer.shutdown()
            log?.stop()
            withExtendedLifetime((state, server, group)) { exit(ExitStatus.finalSnapshotFailed) }
        }
        log?.stop()
        folderLock.markCleanStop()
        logger.info("stopped")
        writer.flush(timeout: .seconds(5))
        writer.shutdown()
        // Leave at once, with the state still held: everything that must outlive the
        // process is written, and freeing a million interactions one by one only delays
        // the exit (past two minutes on a loaded machine); the kernel takes the memory back.
        withExtendedLifetime((state, server, group)) { exit(0) }
    }

    /// Takes the state folder for this daemon alone, or refuses to start (exit 1) while
    /// another heraldd holds it. The lock lasts as long as the value, and the process.
    private func lockStateFolder() throws -> StateFolderLock {
        do {
            try SnapshotStore(folder: storage.folder).prepareFolder()
            return try StateFolderLock(folder: storage.folder)
        } catch let error as StateFolderLockError {
            throw refuse("heraldd refuses to start: \(error.description)")
        } catch {
            throw refuse("heraldd cannot use its state folder: \(error)")
        }
    }

    /// Says why heraldd does not start, at critical priority and on stderr; the exit 1 to throw.
    func refuse(_ message: String) -> ExitCode {
        writer.submit(Self.lifecycleEntry(message, id: JournalMessageID.startRefused, priority: .critical))
        writer.flush(timeout: .seconds(2))
        writeToStandardError("heraldd: \(message)\n")
        return ExitCode.failure
    }

    /// Loads the newest good snapshot before anything is served, or refuses to start
    /// (exit 1) when snapshots exist and none can be loaded; then replays the change log
    /// after it, refusing likewise when a segment cannot be read, and opens the log's next
    /// segment (``ChangeLog``).
    private func restoreState(
        health: PersistenceHealth, changeBell: ChangeBell
    ) throws -> (SharedState, SnapshotWriter, Recovery, ChangeLog?, String?) {
        let store = SnapshotStore(folder: storage.folder)
        var recovery = try recover(store, health: health)
        for aside in recovery.setAside {
            writer.submit(PersistenceJournal.setAsideEntry(aside.path, aside.error))
        }
        if recovery.header == nil, !recovery.setAside.isEmpty {
            writer.submit(PersistenceJournal.startingEmptyEntry(folder: storage.folder))
        }
        // Taken out, not shared: held twice, the replay would copy each part of the store it
        // changes, and freeing the parts left behind would delay the first answer
        // (docs/performance.md, "Durability").
        var state = recovery.state
        recovery.state = HeraldState(configuration: CoreConfiguration())
        state.configuration = coreConfiguration()
        let generation = recovery.header?.generation ?? 0
        // Replayed in every mode: a log left by a heraldd run with one holds acknowledged changes.
        let folder = ChangeLogFolder(folder: storage.folder)
        var replay = ChangeLogFolder.Replay()
        var replayLine: String?
        if !folder.segmentNumbers().isEmpty {
            // Read and made ready on a thread of its own while this one applies (docs/performance.md, "Durability").
            let replaying = SharedState(state)
            state = HeraldState(configuration: CoreConfiguration())
            let replayer = ChangeReplay(state: replaying)
            let applied: Int
            (applied, replay) = replayer.replay { next in
                folder.replay(after: generation) { (record: consuming ChangeRecord) in
                    let (method, caller, appliedAt) = (record.method, record.caller, record.appliedAt)
                    // Moved out of the record, not copied: a copy retains each of an interaction's strings once more.
                    switch record.takeChange() {
                    case .request(let params, let generated):
                        next(replayer.prepare(method: method, caller: caller, appliedAt: appliedAt, params: params, generated: generated))
                    case .donation(let app, let record):
                        next(replayer.prepareDonation(caller: caller, appliedAt: appliedAt, app: app, record: record))
                    }
                }
            }
            // A segment the disk would not give back: going on would lose what it holds, and
            // the cut below would remove it.
            if let failure = replay.readFailure { throw refuse("heraldd cannot read its change log: \(failure)") }
            state = replaying.copy()
            if replay.recordCount > 0 || replay.problem != nil {
                folder.cut(replay)
                writer.submit(PersistenceJournal.replayedEntry(replay, applied: applied, generation: generation, folder: storage.folder))
                replayLine = PersistenceJournal.replaySummary(replay, applied: applied, generation: generation)
            }
        }
        var log: ChangeLog?
        if storage.durabilityMode.logsChanges {
            let clock = self.clock
            // A segment that survived the cut continues; one cut away entirely does not.
            let continuing = replay.segments.contains { number in
                replay.stoppedIn.map { $0.segment != number || $0.validLength > 0 } ?? true
            }
            // What the log's bound starts from: the snapshot loaded, and the segments continued.
            let continued = continuing ? replay.segments.reduce(0) { $0 + Self.fileSize(folder.path(ofSegment: $1)) } : 0
            log = ChangeLog(
                folder: storage.folder, durability: storage.durabilityMode, baseGeneration: generation, continuing: continuing,
                health: health, snapshotBytes: recovery.path.map(Self.fileSize) ?? 0, continuedBytes: continued,
                now: { clock.now() })
        }
        let shared = SharedState(
            state, changeSink: log.map(Self.changeSink), changeBell: changeBell, storeRestore: StoreRestore(isFinished: recovery.store == nil),
            changePreparer: log == nil ? nil : Self.prepareChangeRecord)
        let snapshots = SnapshotWriter(
            store: store,
            generation: generation,
            highestGeneration: recovery.highestGeneration,
            // The encoding threads take the writing thread's priority: idle for a periodic
            // snapshot, normal for one the change log's size asks for (``ChangeLogBound``).
            parallel: { count, work in
                WorkThread.concurrentPerform(
                    iterations: count, named: "herald-snapshot", priority: WorkThread.callingThreadPriority, work)
            }
        )
        // After a replay the state differs from the snapshot: the first periodic one compacts.
        if replayLine == nil { snapshots.markWritten(changes: shared.changeCount) }
        // Set-aside files to replace, or a previous heraldd's state.unwritten to clear (a
        // success clears it), or a replayed log to keep without a log of its own: a
        // snapshot at once. A failure is reported as any other.
        if recovery.needsSnapshot || health.holdsPreviousRecord || health.failure != nil || (log == nil && replayLine != nil) {
            let result = SnapshotService.write(
                copying: Self.copyForSnapshot(shared, log: log), writer: snapshots, health: health, log: log, now: clock.now())
            if log == nil, case .success = result { folder.removeSegments(before: .max) }
        }
        return (shared, snapshots, recovery, log, replayLine)
    }

    /// The size of the file at `path` in bytes; 0 when it cannot be read.
    private static func fileSize(_ path: String) -> Int {
        // stat(2) itself: FoundationEssentials' attributes hold the size as a UInt, which
        // `as? Int` never matched, so every size read 0.
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// A change's record, encoded before the state's lock: a donation's all but its time,
    /// any other request's all but its time and the values it draws under the lock.
    @Sendable private static func prepareChangeRecord(_ change: PendingChange) {
        change.preparedRecord = preparedRecord(of: change)
    }

    private static func preparedRecord(of change: PendingChange) -> [UInt8] {
        if let donation = change.donation {
            return ChangeRecord.preparedDonation(by: change.caller, app: donation.app, record: donation.record)
        }
        return ChangeRecord.preparedRequest(method: change.method, caller: change.caller, params: change.params)
    }

    /// The change log's record of a request's change: what a donation stored, the params
    /// of any other request. Encoded before the state's lock (``prepareChangeRecord(_:)``,
    /// which every hold that may log a change calls first): under it only the time, the
    /// values drawn and the frame are written in.
    private static func changeSink(_ log: ChangeLog) -> @Sendable (PendingChange) -> Void {
        { change in
            var record = change.preparedRecord.take() ?? preparedRecord(of: change)
            let appliedAt = change.appliedAt ?? Date()
            // A donation is known before its record is prepared (``DonateMethod``).
            if change.isDonation {
                log.append(prepared: &record, appliedAt: appliedAt, answered: change.isAnswered)
            } else {
                log.append(preparedRequest: &record, appliedAt: appliedAt, generated: change.generated, answered: change.isAnswered)
            }
        }
    }

    /// The copy a snapshot of a generation writes: with a change log, the log's next segment
    /// begins in the same hold of the state's lock. Taken once the store is restored (on the
    /// snapshot's own thread): a snapshot without it would lose it.
    private static func copyForSnapshot(_ state: SharedState, log: ChangeLog?) -> @Sendable (UInt64) -> (
        state: HeraldState, changes: UInt64
    ) {
        { generation in
            state.storeRestore.wait()
            guard let log else { return state.snapshotCopy() }
            return state.snapshotCopy { log.beginSegment(baseGeneration: generation) }
        }
    }

    func coreConfiguration() -> CoreConfiguration {
        var core = CoreConfiguration()
        core.focusAuthorizationPolicy = rules.policy ?? .prompt
        core.repeatedCallWindow = rules.repeatedCallWindow
        core.undoWindow = rules.undoWindow
        core.maxInteractions = storage.maxInteractions
        core.retention = storage.retentionSeconds ?? core.retention
        limits.applyFairShares(to: &core)
        return core
    }

    private func makeServer(
        notifier: ServiceNotifier, state: SharedState, snapshots: SnapshotWriter, health: PersistenceHealth, log: ChangeLog?,
        startup: StartupSummary
    ) throws -> HeraldServer {
        let place: ServerConfiguration.Listening
        if let activated = SocketActivation.chooseHeraldSocket(SocketActivation.listenedSockets()) {
            place = .activated(fileDescriptor: activated.fd)
        } else {
            place = .path(listening.socket ?? SocketPath.defaultPath(), mode: listening.parsedSocketMode ?? 0o660)
        }
        let statistics = ServerStatistics()
        let writer = self.writer
        let clock = self.clock
        var environment = MethodEnvironment(
            state: state,
            // With a change log, a request's clock value is fixed at its first read: the
            // value its record keeps, and replay gives back.
            clock: log == nil ? clock : CapturingClock(clock),
            statistics: statistics,
            openRPCDocument: OpenRPCDocument.value,
            statsContributions: {
                let counters = writer.counters
                let (evicted, expired, notifications) = state.read { ($0.evictedCount, $0.expiredCount, $0.notificationsDropped) }
                return [
                    "journal": .object([
                        "written": .number(JSONNumber(Int(counters.written))),
                        "dropped": .number(JSONNumber(Int(counters.dropped))),
                    ]),
                    "changeLog": log.map { log in
                        let figures = log.figures
                        return .object([
                            "durability": .string(log.durability.rawValue),
                            "records": .number(JSONNumber(Int(clamping: figures.records))),
                            "writes": .number(JSONNumber(Int(clamping: figures.writes))),
                            "syncs": .number(JSONNumber(Int(clamping: figures.syncs))),
                            "bytes": .number(JSONNumber(Int(clamping: figures.bytes))),
                            "failures": .number(JSONNumber(Int(clamping: figures.failures))),
                            "segment": .number(JSONNumber(Int(clamping: figures.segment))),
                            "sinceSnapshotBytes": .number(JSONNumber(Int(clamping: figures.sinceSnapshotBytes))),
                            "compactAtBytes": .number(JSONNumber(Int(clamping: figures.compactAtBytes))),
                            "compactions": .number(JSONNumber(Int(clamping: figures.compactions))),
                        ])
                    } ?? .object(["durability": .string(Durability.snapshot.rawValue)]),
                    "snapshot": {
                        var member = snapshots.statsMember.objectValue ?? JSONObject()
                        for added in health.statsMembers { member[added.key] = added.value }
                        return .object(member)
                    }(),
                    "retention": .object([
                        "evicted": .number(JSONNumber(evicted)),
                        "expired": .number(JSONNumber(expired)),
                        "notificationsExpired": .number(JSONNumber(notifications.expired)),
                    ]),
                ]
            },
            maxStringBytes: max(1, limits.maxStringBytes),
            takeSnapshot: { () throws(RPCError) -> SnapshotResult in
                switch SnapshotService.write(
                    copying: Self.copyForSnapshot(state, log: log), writer: snapshots, health: health, log: log, now: clock.now())
                {
                case .success(let outcome):
                    return SnapshotResult(
                        path: outcome.path,
                        generation: Int(outcome.generation),
                        interactions: outcome.interactions,
                        bytes: outcome.bytes,
                        durationMs: (outcome.durationMs * 1000).rounded() / 1000
                    )
                case .failure(let error):
                    throw RPCError(.snapshotFailed, reason: Self.snapshotFailure(error, health: health, generation: snapshots.generation))
                }
            }
        )
        environment.maxResponseBytes = limits.requestLimits.maxResponseBytes
        environment.requireAppIdentity = listening.requireAppIdentity
        environment.changesRefused = { health.changesRefused() }
        environment.capturesChanges = log != nil
        environment.recordSummary = { summary in writer.submit(NotificationJournal.summaryEntry(summary)) }
        environment.recordSnoozeEnded = { delivered in writer.submit(NotificationJournal.snoozeEndedEntry(delivered)) }
        environment.recordResponse = { uid, response, handoff in
            writer.submit(NotificationJournal.responseEntry(uid: uid, response, handoff: handoff))
        }
        environment.recordFocusChange = { change in writer.submit(FocusJournal.entry(change)) }
        environment.recordFocusDigest = { digest in writer.submit(FocusJournal.digestEntry(digest)) }
        environment.recordFocusHold = { event in writer.submit(FocusJournal.holdEntry(event)) }
        var configuration = ServerConfiguration(
            listening: place,
            limits: limits.requestLimits,
            administratorPolicy: AdministratorPolicy(adminGID: listening.adminGroup.flatMap(AdministratorPolicy.groupID)),
            exitIdleAfter: listening.exitIdleSeconds
        )
        configuration.listenBacklog = max(1, limits.listenBacklog)
        configuration.answerGate = log.map { log in
            AnswerGate(
                appended: { log.appendedSequence }, written: { log.writtenSequence },
                whenWritten: { sequence, callback in log.whenWritten(sequence, callback) }, commit: { log.commit() })
        }
        return HeraldServer(
            configuration: configuration,
            environment: environment,
            // With --log-target none there is no entry to make: record nothing at all.
            recorder: target == LogTarget.none
                ? DiscardingResultRecorder()
                : JournalResultRecorder(writer: writer, errors: JournalErrorReason(schema: OpenRPCDocument.value)),
            logger: logger,
            onReady: { place in
                let line = "serving on \(place); \(startup.description)"
                writer.submit(Self.lifecycleEntry("heraldd started: \(line)", id: JournalMessageID.daemonStarted))
                notifier.ready()
                notifier.status(health.failure.map { $0.statusLine(health.policy) } ?? "Serving on \(place)")
                // The console line a person running heraldd in a terminal looks for.
                writeToStandardError("heraldd: \(line)\n")
            },
            onIdleExit: { seconds in
                var entry = Self.lifecycleEntry(
                    "heraldd exiting: no connection for \(DurationText.number(seconds)) s and nothing due within it; the next connection starts it again",
                    id: JournalMessageID.idleExit)
                try? entry.append(name: "HERALD_IDLE_SECONDS", value: DurationText.number(seconds))
                writer.submit(entry)
            },
            onStopping: {
                writer.submit(Self.lifecycleEntry("heraldd stopping", id: JournalMessageID.daemonStopping))
                notifier.stopping()
                notifier.status("Stopping: finishing in-flight requests")
            }
        )
    }

    /// `STATUS=` after a write of the state failed or recovered.
    private static func statusLine(_ event: PersistenceEvent) -> String {
        switch event {
        case .failed(let failure, _, let policy): failure.statusLine(policy)
        case .recovered: "Serving: state written again"
        case .finalFailed(let failure, _): "Stopping: final snapshot failed: \(failure.cause)"
        }
    }

    /// The reason of error 1010: the folder, the cause, and what stands.
    private static func snapshotFailure(_ error: SnapshotFileError, health: PersistenceHealth, generation: UInt64) -> String {
        let consequence =
            health.policy == .refuse
            ? "changes are refused (error 1011) until a snapshot succeeds"
            : "changes are still taken (--on-write-failure accept); a stop now loses them"
        let onDisk = generation == 0 ? "No snapshot was written before" : "The snapshot on disk (generation \(generation)) is intact"
        return "Herald could not write its state to \(health.folder): \(error.reason) "
            + "\(onDisk); \(consequence). Free space or make the folder writable, then try again."
    }

    /// The entries that mark the daemon's start and stop in the journal, with their catalog ids.
    static func lifecycleEntry(_ message: String, id: String, priority: JournalPriority = .notice) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(priority.rawValue))
        try? entry.append(name: "MESSAGE", value: message)
        try? entry.append(name: "MESSAGE_ID", value: id)
        return entry
    }
}

/// Writes `text` to standard error whole, unbuffered.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
