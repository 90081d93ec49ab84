import HeraldCore
import HeraldProtocol

/// `set-conversation` mutes, unmutes or marks priority one of the person's conversations;
/// the next `update-content` of it is decided by it.
extension SetConversationMethod: ServedMethod {
    static func handle(
        _ params: SetConversationParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ConversationControl> {
        let now = services.clock.now()
        return try services.state.withLock { state throws(RuleError) in
            try state.setConversation(params, caller: context.caller, now: now)
        }
    }
}
