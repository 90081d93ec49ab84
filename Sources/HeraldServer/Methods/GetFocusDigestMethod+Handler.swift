import HeraldCore
import HeraldProtocol

/// `get-focus-digest` brings the uid's Focus up to now first, so it may end one: see
/// ``FocusChangingCall``.
extension GetFocusDigestMethod: ServedMethod {
    static func handle(
        _ params: UIDParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetFocusDigestResult> {
        try FocusChangingCall(services).run { state, now throws(RuleError) in
            try state.getFocusDigest(params, caller: context.caller, now: now)
        }
    }
}
