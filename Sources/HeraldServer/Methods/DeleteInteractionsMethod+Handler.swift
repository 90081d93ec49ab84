import HeraldCore
import HeraldProtocol

/// `delete-interactions` removes a uid's interactions, a step of the lock at a time.
extension DeleteInteractionsMethod: ServedMethod {
    static func handle(
        _ params: DeleteInteractionsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<DeleteInteractionsResult> {
        let state = services.state
        // A few identifiers are looked up under the lock; a group, or all of an app, is
        // found by a scan of the uid's interactions (and many identifiers looked up) on a
        // copy, outside the lock. The removal then takes the lock a step at a time.
        let deletion =
            isLookUp(identifierCount: params.identifiers?.count)
            ? try state.readThrowing { state throws(RuleError) in
                try state.interactionDeletion(params, caller: context.caller)
            }
            : try state.copy().interactionDeletion(params, caller: context.caller)
        let steps = deletion.steps(of: deletionStep)
        var deleted = 0
        var next = 0
        if !steps.isEmpty {
            state.withLockInSteps { state in
                let removed = state.delete(steps[next])
                deleted += removed
                next += 1
                return (isDone: next == steps.count, changed: removed > 0)
            }
        }
        return MethodOutcome(result: DeleteInteractionsResult(deleted: deleted), audit: deletion.audit)
    }
}
