import Foundation
import HeraldCore
import HeraldProtocol

/// Applies the change log's records to a restored state, at start: each request again
/// through its method's handler, with the caller, params, clock value and drawn
/// identifiers it had, and heraldd's own periodic work (`tick:` records) at its time. No
/// connection is told, no result is written, nothing is journalled but what the rules return.
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

    /// Applies one record; false when its method is unknown or its params do not parse (a
    /// rule that refuses it again is applied as it was: not at all).
    @discardableResult
    package func apply(method: String, caller: Caller, appliedAt: Date, params: [UInt8], generated: [String]) -> Bool {
        let change = PendingChange(
            method: method, caller: caller, params: params, appliedAt: appliedAt, generated: generated, isReplay: true)
        return ChangeCapture.run(change) {
            switch method {
            case Self.summariesTick:
                _ = state.withLock(unsharingListOf: nil, reportingChange: { Self.deliverDue(&$0, now: appliedAt) })
                return true
            case Self.focusesTick:
                state.withLock(reportingChange: { state -> (value: Void, changed: Bool) in
                    guard state.advanceFocuses(now: appliedAt) else { return ((), false) }
                    _ = (state.takeFocusChanges(), state.takeFocusDigests())
                    return ((), true)
                })
                return true
            case Self.focusHoldsTick:
                state.withLock(reportingChange: { state -> (value: Void, changed: Bool) in
                    guard Self.endHolds(&state, now: appliedAt) else { return ((), false) }
                    _ = (state.takeFocusChanges(), state.takeFocusDigests())
                    return ((), true)
                })
                return true
            case Self.pruneTick:
                Self.prune(state, now: appliedAt)
                return true
            default:
                guard let entry = methods.entry(named: method),
                    let tape = try? JSONTape.parse(params, maxDepth: 64), tape.root.kind == .object
                else { return false }
                var output: [UInt8] = []
                _ = try? entry.invoke(tape.root, RequestContext(caller: caller), &output)
                return true
            }
        }
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
