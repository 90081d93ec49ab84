import Foundation
import HeraldCore
import HeraldProtocol

extension MethodTable {
    /// Each uid's Focuses and summary: the methods that change them journal every change
    /// of a Focus in effect and tell the subscribers whose status changed, after the lock.
    mutating func registerFocusMethods(_ environment: MethodEnvironment, subscriptions: FocusSubscriptions) {
        let state = environment.state
        let clock = environment.clock

        let changingFocus = FocusChangingCall(environment: environment, subscriptions: subscriptions)
        register(SetFocusMethod.self) { params, context in
            try changingFocus.run { state, now throws(RuleError) in
                try state.setFocus(params, caller: context.caller, now: now, budget: environment.focusPage(context))
            }
        }
        register(DefineFocusMethod.self) { params, context in
            try changingFocus.run { state, now throws(RuleError) in
                try state.defineFocus(params, caller: context.caller, now: now, budget: environment.focusPage(context))
            }
        }
        register(DeleteFocusMethod.self) { params, context in
            try changingFocus.run { state, now throws(RuleError) in
                try state.deleteFocus(params, caller: context.caller, now: now, budget: environment.focusPage(context))
            }
        }
        register(GetFocusMethod.self) { params, context in
            let now = clock.now()
            let budget = environment.focusPage(context)
            return try state.read { state in
                Result { () throws(RuleError) in try state.getFocus(params, caller: context.caller, now: now, budget: budget) }
            }.get()
        }
        register(SetSummaryMethod.self) { params, context in
            try state.withLock { state throws(RuleError) in try state.setSummary(params, caller: context.caller, now: clock.now()) }
        }
        register(GetSummaryMethod.self) { params, context in
            let now = clock.now()
            return try state.read { state in Result { () throws(RuleError) in try state.getSummary(params, caller: context.caller, now: now) } }.get()
        }
    }
}

/// Runs a method that may change a uid's Focus in effect, then journals the changes, tells
/// the subscribers and wakes the ticker for a change due before its next round, after the
/// lock.
private struct FocusChangingCall: Sendable {
    let environment: MethodEnvironment
    let subscriptions: FocusSubscriptions

    func run<Result: Sendable>(
        _ body: (inout HeraldState, Date) throws(RuleError) -> MethodOutcome<Result>
    ) throws(RuleError) -> MethodOutcome<Result> {
        let now = environment.clock.now()
        let (outcome, changes, view, next) = try environment.state.withLock { state throws(RuleError) in
            let outcome = try body(&state, now)
            return (outcome, state.takeFocusChanges(), state.focusView, state.nextFocusChange)
        }
        environment.reportFocusChanges(changes, view: view, now: now, subscriptions: subscriptions)
        environment.tickerAlarm.focusChange(dueAt: next)
        return outcome
    }
}

extension MethodEnvironment {
    /// Journals each change of a Focus in effect and tells subscribers whose Focus status
    /// changed, from `view` (taken with the changes).
    func reportFocusChanges(_ changes: [FocusChange], view: FocusView, now: Date, subscriptions: FocusSubscriptions) {
        for change in changes {
            recordFocusChange(change)
        }
        subscriptions.refresh(from: view, now: now)
    }
}
