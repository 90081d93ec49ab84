import HeraldCore
import HeraldProtocol

/// `get-cooldown` reads a uid's burst cooldown window.
extension GetCooldownMethod: ServedMethod {
    static func handle(_ params: UIDParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<CooldownResult> {
        try services.state.readThrowing { state throws(RuleError) in
            try state.getCooldown(params, caller: context.caller)
        }
    }
}
