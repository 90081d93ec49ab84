import HeraldCore
import HeraldProtocol

/// `set-notification-categories` replaces an app's set of categories.
extension SetNotificationCategoriesMethod: ServedMethod {
    static func handle(
        _ params: SetNotificationCategoriesParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<NotificationCategoriesResult> {
        try services.state.withLock { state throws(RuleError) in try state.setNotificationCategories(params, caller: context.caller) }
    }
}
