import HeraldCore
import HeraldProtocol

/// `get-notification-categories` reads an app's set of categories.
extension GetNotificationCategoriesMethod: ServedMethod {
    static func handle(
        _ params: GetNotificationCategoriesParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<NotificationCategoriesResult> {
        try services.state.readThrowing { state throws(RuleError) in
            try state.getNotificationCategories(params, caller: context.caller)
        }
    }
}
