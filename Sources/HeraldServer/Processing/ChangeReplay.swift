import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// Applies the change log's records to a restored state, at start: each request again
/// through its method's handler, with the caller, params, clock value and drawn
/// identifiers it had, and heraldd's own periodic work (`tick:` records) at its time. No
/// connection is told, no result is written, nothing is journalled but what the rules return.
///
/// A record is made ready (``prepare(method:caller:appliedAt:params:generated:)``: params
/// parsed, a donation checked by the rules that need no state) apart from its turn
/// (``apply(_:)``), so that a restart does the two on two threads at once
/// (``replay(reading:)``). A donation the log kept as stored
/// (``prepareDonation(caller:appliedAt:app:record:)``) needs neither: only the
/// store's part is left for its turn, and a restart holds a run of them until it ends, so
/// that what a later donation of the run evicts is never stored (``DonationRun``).
package struct ChangeReplay: Sendable {
    /// Summaries due and snoozed notifications returned (``HeraldServer/deliverDueSummaries(now:)``).
    package static let summariesTick = "tick:summaries"
    /// Focus changes due (``HeraldServer/advanceFocuses(now:)``).
    package static let focusesTick = "tick:focuses"
    /// `--retention` applied.
    package static let pruneTick = "tick:prune"
    /// At start, the holds of the heraldd before ended (``HeraldServer/endHoldsOfTheRunBefore(now:)``).
    package static let focusHoldsTick = "tick:focus-holds"

    private let state: SharedState
    private let methods: MethodTable

    /// Replays onto `state`, whose configuration is already set.
    package init(state: SharedState) {
        var environment = MethodEnvironment(
            state: state, clock: CapturingClock(SystemClock()), statistics: ServerStatistics(), openRPCDocument: .null,
            maxStringBytes: .max)
        environment.maxResponseBytes = .max
        environment.writesResults = false
        self.state = state
        self.methods = .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry()))
    }

    /// Makes a record ready for its turn, on any thread: its params parsed and, for a
    /// donation, read and checked by the rules that need no state, so that its turn is the
    /// store's part alone (``apply(_:)``).
    package func prepare(method: String, caller: Caller, appliedAt: Date, params: [UInt8], generated: [String]) -> PreparedChange {
        let change = PendingChange(
            method: method, caller: caller, params: params, appliedAt: appliedAt, generated: generated, isReplay: true)
        if method.hasPrefix("tick:") { return PreparedChange(change, .tick) }
        guard let entry = methods.entry(named: method), let tape = try? JSONTape.parse(params, maxDepth: 64),
            tape.root.kind == .object
        else { return PreparedChange(change, .notApplicable) }
        guard method == DonateMethod.name else { return PreparedChange(change, .request(entry, tape.root)) }
        // What the method table's entry does before the handler, then the handler's part
        // before the lock (``DonateMethod/prepare(_:)``), its identifier handed back.
        let context = RequestContext(caller: caller)
        do {
            try MethodTable.checkCaller(caller, of: method, entry.access, params: tape.root, requireAppIdentity: false)
            try methods.checkParams(tape.root, context)
            let params = try DonateMethod.decodeParams(tape.root)
            let donation = try ChangeCapture.run(change) { () throws(RuleError) in try DonateMethod.prepare(params) }
            return PreparedChange(donationBy: caller, appliedAt: appliedAt, donation)
        } catch {
            return PreparedChange(change, .refused)
        }
    }

    /// Makes a donation the log kept as stored ready for its turn: what is left is the
    /// store's part (the room for its app, a retry, evicting past the limits), run as it
    /// ran then, so the state after it is the state the donation left.
    package func prepareDonation(caller: Caller, appliedAt: Date, app: consuming String, record: EncodedInteraction) -> PreparedChange {
        PreparedChange(donationBy: caller, appliedAt: appliedAt, PreparedDonation(recordedApp: app, record: record))
    }

    /// Applies `changes` in order, one at a time; returns how many were applicable: not
    /// those whose method is unknown or whose params do not parse (a rule that refuses one
    /// again applies it as it was applied then: not at all). A run of donations is stored
    /// in one hold of the state's lock.
    package func apply(_ changes: [PreparedChange]) -> Int {
        var changes = changes
        var released = ReleasedInteractions()
        var run: DonationRun?
        return apply(&changes, in: &run, releasing: &released)
    }

    /// The same, adding what the donations evicted to `released` rather than freeing it,
    /// and moving each donation's interaction out of `changes`, leaving its place empty: a
    /// restart frees both on its reading thread, which has time to spare
    /// (docs/performance.md, "Durability").
    ///
    /// With a `run`, donations are held in it across calls rather than stored one at a
    /// time (``HeraldState/donate(_:caller:now:in:releasing:)``): what a later donation of
    /// the run evicts is never stored. The run is stored before any other change, and
    /// ``storeRun(_:)`` stores what is left once the last batch is applied.
    func apply(_ changes: inout [PreparedChange], in run: inout DonationRun?, releasing released: inout ReleasedInteractions) -> Int {
        var applied = 0
        var index = changes.startIndex
        while index < changes.endIndex {
            if case .donation = changes[index].work {
                state.withLock { (state: inout HeraldState) -> Void in
                    while index < changes.endIndex, case .donation = changes[index].work {
                        let (caller, now) = (changes[index].caller, changes[index].appliedAt)
                        if run != nil {
                            // The look-up a few donations on, started now, is there by its turn.
                            let ahead = index + Self.prefetchDistance
                            if ahead < changes.endIndex { Self.prefetch(&changes[ahead], in: &run!) }
                            let hash = Self.runHash(of: &changes[index], in: &run!)
                            guard case .donation(let donation) = changes[index].takeWork() else { break }
                            state.donate(donation, caller: caller, now: now, hash: hash, in: &run!, releasing: &released)
                        } else {
                            guard case .donation(let donation) = changes[index].takeWork() else { break }
                            // Refused again as it was refused then (an app's room, a conflict): not at all.
                            _ = try? state.donate(donation, caller: caller, now: now, releasing: &released)
                        }
                        applied += 1
                        index += 1
                    }
                }
                continue
            }
            if run != nil { storeRun(&run!) }
            if apply(changes[index]) { applied += 1 }
            index += 1
        }
        return applied
    }

    /// How many donations ahead a run's look-up is started (``DonationRun/prefetch(hash:)``):
    /// a donation's turn takes a few hundred nanoseconds, about one wait for memory.
    static let prefetchDistance = 4

    /// Works out `change`'s key hash, when it is a donation, and starts `run`'s look-up of
    /// it (``DonationRun/prefetch(hash:)``), the run reached in place: `run!.prefetch(hash:)`
    /// would copy it.
    private static func prefetch(_ change: inout PreparedChange, in run: inout DonationRun) {
        guard let hash = change.workOutRunHash(with: &run.keyHashes) else { return }
        run.prefetch(hash: hash)
    }

    /// The key hash of `change`, a donation, worked out now unless it was ahead of its turn.
    private static func runHash(of change: inout PreparedChange, in run: inout DonationRun) -> Int? {
        change.workOutRunHash(with: &run.keyHashes)
    }

    /// Runs of at least this many donations are stored on every core.
    static let parallelRunSize = 4096

    /// How a long run is stored: on every core, at the process's priority (a start waits for it).
    private static let onEveryCore: ParallelWork = { count, work in
        WorkThread.concurrentPerform(iterations: count, named: "herald-store", priority: .normal, work)
    }

    /// Stores the donations `run` holds (``HeraldState/storeDonationRun(_:parallel:)``),
    /// on every core when they are many, and empties it.
    func storeRun(_ run: inout DonationRun) {
        guard !run.isEmpty else { return }
        let parallel = run.count < Self.parallelRunSize ? nil : Self.onEveryCore
        state.withLock { (state: inout HeraldState) -> Void in state.storeDonationRun(&run, parallel: parallel) }
    }

    /// Applies one change that is not a donation.
    private func apply(_ prepared: PreparedChange) -> Bool {
        guard let change = prepared.change else { return false }
        let appliedAt = prepared.appliedAt
        return ChangeCapture.run(change) {
            switch prepared.work {
            case .tick:
                return applyTick(change.method, at: appliedAt)
            case .request(let entry, let params):
                var output: [UInt8] = []
                _ = try? entry.invoke(params, RequestContext(caller: change.caller), &output)
                return true
            case .refused, .donation:
                // A donation never comes here: the runs above store every one.
                return true
            case .notApplicable:
                return false
            }
        }
    }

    /// heraldd's own periodic work `tick` at `appliedAt`; false for a tick it does not know.
    private func applyTick(_ tick: String, at appliedAt: Date) -> Bool {
        switch tick {
        case Self.summariesTick:
            _ = state.withLock(unsharingListOf: nil, reportingChange: { Self.deliverDue(&$0, now: appliedAt) })
        case Self.focusesTick:
            state.withLock(reportingChange: { state -> (value: Void, changed: Bool) in
                guard state.advanceFocuses(now: appliedAt) else { return ((), false) }
                _ = (state.takeFocusChanges(), state.takeFocusDigests())
                return ((), true)
            })
        case Self.focusHoldsTick:
            state.withLock(reportingChange: { state -> (value: Void, changed: Bool) in
                guard Self.endHolds(&state, now: appliedAt) else { return ((), false) }
                _ = (state.takeFocusChanges(), state.takeFocusDigests())
                return ((), true)
            })
        case Self.pruneTick:
            Self.prune(state, now: appliedAt)
        default:
            return false
        }
        return true
    }

    /// The summaries due and the snoozed notifications to return at `now`.
    static func deliverDue(_ state: inout HeraldState, now: Date) -> (value: ([NotificationSummary], [NotificationDelivered]), changed: Bool) {
        let summaries = state.deliverDueSummaries(now: now)
        let returned = state.returnDueSnoozed(now: now)
        return ((summaries, returned), !summaries.isEmpty || !returned.isEmpty)
    }

    /// Ends every Focus hold, and a Focus a hold kept on in the snapshot: a restart closed
    /// their connections. Whether a Focus changed.
    static func endHolds(_ state: inout HeraldState, now: Date) -> Bool {
        let released = state.releaseEveryFocusHold(now: now)
        return state.advanceFocuses(now: now) || released
    }

    /// `--retention` at `now`, in steps.
    package static func prune(_ state: SharedState, now: Date) {
        state.withLockInSteps { state in
            let (pruned, isComplete) = state.pruneExpired(now: now, atMost: HeraldState.pruningStep)
            return (isComplete, pruned > 0)
        }
    }
}

extension MethodEnvironment {
    /// Runs heraldd's own periodic work `body` as the change `tick` at `now`, when changes
    /// are captured for a change log.
    package func capturingTick<Value>(_ tick: String, now: Date, _ body: () -> Value) -> Value {
        guard capturesChanges else { return body() }
        return ChangeCapture.run(PendingChange(method: tick, caller: ChangeCapture.daemon, params: [], appliedAt: now), body)
    }
}
