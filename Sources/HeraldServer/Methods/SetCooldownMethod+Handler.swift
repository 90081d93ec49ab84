import HeraldCore
import HeraldProtocol

/// `set-cooldown` sets a uid's burst cooldown window.
extension SetCooldownMethod: ServedMethod {
    static func handle(_ params: SetCooldownParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<CooldownResult> {
        try services.state.withLock { state throws(RuleError) in
            try state.setCooldown(params, caller: context.caller)
        }
    }
}
