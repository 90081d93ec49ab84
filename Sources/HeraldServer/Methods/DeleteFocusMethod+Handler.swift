import HeraldCore
import HeraldProtocol

/// `delete-focus` may change a uid's Focus in effect: see ``FocusChangingCall``.
extension DeleteFocusMethod: ServedMethod {
    static func handle(
        _ params: DeleteFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetFocusResult> {
        try FocusChangingCall(services).run(defining: (params.uid ?? context.caller.uid, params.name)) { state, now throws(RuleError) in
            try state.deleteFocus(params, caller: context.caller, now: now, budget: services.environment.focusPage(context))
        }
    }
}
