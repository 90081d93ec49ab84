import HeraldCore
import HeraldProtocol

/// `define-focus` may change a uid's Focus in effect: see ``FocusChangingCall``.
extension DefineFocusMethod: ServedMethod {
    static func handle(
        _ params: DefineFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetFocusResult> {
        try FocusChangingCall(services).run(defining: (params.uid ?? context.caller.uid, params.focus.name)) { state, now throws(RuleError) in
            try state.defineFocus(params, caller: context.caller, now: now, budget: services.environment.focusPage(context))
        }
    }
}
