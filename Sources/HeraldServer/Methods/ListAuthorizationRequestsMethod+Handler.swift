import HeraldCore
import HeraldProtocol

/// `list-authorization-requests` reads the requests waiting for a person's answer.
extension ListAuthorizationRequestsMethod: ServedMethod {
    static func handle(
        _ params: ListAuthorizationRequestsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListAuthorizationRequestsResult> {
        try services.state.readThrowing { state throws(RuleError) in
            try state.listAuthorizationRequests(params, caller: context.caller)
        }
    }
}
