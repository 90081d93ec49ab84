import HeraldCore
import HeraldProtocol

/// `get-summary` reads a uid's summary schedule and its next delivery.
extension GetSummaryMethod: ServedMethod {
    static func handle(_ params: UIDParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<SetSummaryResult>
    {
        let now = services.clock.now()
        return try services.state.readThrowing { state throws(RuleError) in
            try state.getSummary(params, caller: context.caller, now: now)
        }
    }
}
