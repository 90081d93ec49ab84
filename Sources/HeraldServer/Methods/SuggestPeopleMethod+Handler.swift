import HeraldCore
import HeraldProtocol

/// `suggest-people` ranks the people a uid talks with, on a copy of the state.
extension SuggestPeopleMethod: ServedMethod {
    static func handle(
        _ params: SuggestPeopleParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SuggestPeopleResult> {
        // A scan of every interaction, seconds for a million: on a copy (copy-on-write,
        // as a snapshot's), so the lock is held only to take it.
        try services.state.copy().suggestPeople(params, caller: context.caller, now: services.clock.now())
    }
}
