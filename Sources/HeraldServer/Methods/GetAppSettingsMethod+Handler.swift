import HeraldCore
import HeraldProtocol

/// `get-app-settings` reads an app's authorization and capabilities.
extension GetAppSettingsMethod: ServedMethod {
    static func handle(
        _ params: GetAppSettingsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetAppSettingsResult> {
        try services.state.readThrowing { state throws(RuleError) in
            try state.appSettings(params, caller: context.caller)
        }
    }
}
