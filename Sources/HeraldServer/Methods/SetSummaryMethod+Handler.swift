import HeraldCore
import HeraldProtocol

/// `set-summary` replaces a uid's summary schedule.
extension SetSummaryMethod: ServedMethod {
    static func handle(
        _ params: SetSummaryParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SetSummaryResult> {
        try services.state.withLock { state throws(RuleError) in
            try state.setSummary(params, caller: context.caller, now: services.clock.now())
        }
    }
}
