import HeraldCore
import HeraldProtocol

/// `deliver-summary` delivers a uid's summary now, journals it and tells the presenters.
extension DeliverSummaryMethod: ServedMethod {
    static func handle(
        _ params: DeliverSummaryParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<DeliverSummaryResult> {
        let (outcome, summaries) = try services.state.withLock(unsharingListOf: params.uid ?? context.caller.uid) { state throws(RuleError) in
            try state.deliverSummary(params, caller: context.caller, now: services.clock.now())
        }
        let burst = services.presenters.newBurst()
        for summary in summaries {
            services.environment.recordSummary(summary)
            services.presenters.summaryDelivered(summary, burst: burst)
        }
        return outcome
    }
}
