import HeraldCore
import HeraldProtocol

/// `get-focus` reads a page of a uid's Focuses, within --max-response-bytes.
extension GetFocusMethod: ServedMethod {
    static func handle(
        _ params: GetFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetFocusResult> {
        let now = services.clock.now()
        let budget = services.environment.focusPage(context)
        return try services.state.readThrowing { state throws(RuleError) in
            try state.getFocus(params, caller: context.caller, now: now, budget: budget)
        }
    }
}
