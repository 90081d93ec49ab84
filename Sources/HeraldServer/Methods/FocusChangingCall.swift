import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// Runs a method that may change a uid's Focus in effect, then journals the changes, tells
/// the subscribers and tells the daemon's alarm when the next change is due, after the lock.
/// A method that defines or deletes a Focus names it (`defining`): its watchers hear
/// `focus-defined` with the definition now, before the changes it caused.
struct FocusChangingCall: Sendable {
    let environment: MethodEnvironment
    let subscriptions: FocusSubscriptions
    let presenters: NotificationPresenters

    init(_ services: MethodServices) {
        environment = services.environment
        subscriptions = services.subscriptions
        presenters = services.presenters
    }

    func run<Result: Sendable>(
        defining: (uid: UInt32, name: String)? = nil,
        _ body: (inout HeraldState, Date) throws(RuleError) -> MethodOutcome<Result>
    ) throws(RuleError) -> MethodOutcome<Result> {
        let now = environment.clock.now()
        let (outcome, changes, view, next, digests, definition) = try environment.state.withLock { state throws(RuleError) in
            let outcome = try body(&state, now)
            let definition = defining.map { state.focusDefinition(uid: $0.uid, name: $0.name) }
            return (outcome, state.takeFocusChanges(), state.focusView, state.nextFocusChange, state.takeFocusDigests(), definition)
        }
        if let defining, let definition {
            subscriptions.tellDefined(uid: defining.uid, name: defining.name, definition: definition)
        }
        environment.reportFocusChanges(changes, view: view, now: now, subscriptions: subscriptions)
        environment.reportFocusDigests(digests, presenters: presenters)
        environment.state.dueAlarm.due(at: next)
        return outcome
    }
}

extension MethodEnvironment {
    /// Journals each change of a Focus in effect, tells subscribers whose Focus status
    /// changed, from `view` (taken with the changes), and tells each uid's watchers.
    func reportFocusChanges(_ changes: [FocusChange], view: FocusView, now: Date, subscriptions: FocusSubscriptions) {
        for change in changes {
            recordFocusChange(change)
        }
        subscriptions.refresh(from: view, now: now)
        subscriptions.tell(changes)
    }

    /// Journals each digest of a Focus that ended and tells the presenters of its uid.
    func reportFocusDigests(_ digests: [FocusDigest], presenters: NotificationPresenters) {
        for digest in digests {
            recordFocusDigest(digest)
            presenters.focusDigest(digest)
        }
    }
}
