import HeraldCore
import HeraldProtocol

/// `list-conversations` reads a page of a uid's controlled conversations, within
/// --max-response-bytes.
extension ListConversationsMethod: ServedMethod {
    static func handle(
        _ params: ListConversationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListConversationsResult> {
        let now = services.clock.now()
        let budget = services.environment.conversationPage(context)
        return try services.state.readThrowing { state throws(RuleError) in
            try state.listConversations(params, caller: context.caller, now: now, budget: budget)
        }
    }
}

extension MethodEnvironment {
    /// A page of `list-conversations`.
    func conversationPage(_ context: RequestContext) -> PageBudget<ConversationControl> {
        PageBudget(maxBytes: pageBytes(context)) { control in
            (try? JSONValueEncoder().encode(control)).map(Self.writtenSize) ?? 0
        }
    }
}
