import HeraldCore
import HeraldProtocol

/// `set-focus` may change a uid's Focus in effect: see ``FocusChangingCall``.
extension SetFocusMethod: ServedMethod {
    static func handle(
        _ params: SetFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SetFocusResult> {
        try FocusChangingCall(services).run(defining: params.focus.map { (params.uid ?? context.caller.uid, $0.name) }) { state, now throws(RuleError) in
            try state.setFocus(params, caller: context.caller, now: now, budget: services.environment.focusPage(context))
        }
    }
}
