import HeraldCore
import HeraldProtocol

/// `get-focus` reads a page of a uid's Focuses, within --max-response-bytes, and may
/// subscribe the connection to `active-focus-changed`.
extension GetFocusMethod: ServedMethod {
    static func handle(
        _ params: GetFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<GetFocusResult> {
        let now = services.clock.now()
        let budget = services.environment.focusPage(context)
        // Watching begins before the read, so that no change falls between the two: one
        // made meanwhile is told, and may already show in the answer. Undone when the
        // read is refused (another uid's, by a non-administrator).
        var watched: (connection: ConnectionIdentity, before: UInt32?)?
        if params.subscribe == true, let connection = context.connection {
            watched = (connection, services.subscriptions.watch(connection, uid: params.uid ?? context.caller.uid))
        }
        do {
            return try services.state.readThrowing { state throws(RuleError) in
                try state.getFocus(params, caller: context.caller, now: now, budget: budget)
            }
        } catch {
            if let watched { services.subscriptions.watch(watched.connection, restoring: watched.before) }
            throw error
        }
    }
}
