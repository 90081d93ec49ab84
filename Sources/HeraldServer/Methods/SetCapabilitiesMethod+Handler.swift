import HeraldCore
import HeraldProtocol

/// `set-capabilities` sets what an app may do (administrators only).
extension SetCapabilitiesMethod: ServedMethod {
    static func handle(
        _ params: SetCapabilitiesParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SetCapabilitiesResult> {
        try services.state.withLock { state throws(RuleError) in
            try state.setCapabilities(params, caller: context.caller, now: services.clock.now())
        }
    }
}
