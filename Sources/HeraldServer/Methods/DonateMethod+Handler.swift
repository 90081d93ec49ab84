import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// `donate` records an interaction under the state's lock.
extension DonateMethod: ServedMethod {
    static func handle(_ params: DonateParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<DonateResult>
    {
        // The rules that need no state run before the lock, and the lock is taken once;
        // a second time only for a retry, whose comparison with the stored interaction
        // is linear in its size (an 88,000-member call record takes milliseconds) and
        // so is made between the two.
        let donation = try prepare(params)
        // The log keeps what is stored rather than the params: replay only stores it again.
        // Its record is encoded at the first hold, before the lock is taken.
        ChangeCapture.withCurrent { $0.donation = StoredDonation(donation) }
        var retry: DonationRetry?
        while true {
            // A retry's comparison changes nothing: the record goes with the step that does.
            let step = try services.state.withLock(logsChange: { if case .done = $0 { true } else { false } }) {
                [retry] state throws(RuleError) in
                try state.donate(donation, caller: context.caller, now: services.clock.now(), retry: retry)
            }
            switch step {
            case .done(let result, _): return donation.outcome(result)  // What it evicted is freed here.
            case .compare(let stored): retry = DonationRetry.compare(donation, with: stored)
            }
        }
    }

    /// The part of `donate` made before the state's lock: its identifier drawn when it has
    /// none, and the rules that need no state. Replay makes it on its reading thread.
    static func prepare(_ params: DonateParams) throws(RuleError) -> PreparedDonation {
        var params = params
        // Drawn here rather than by the rule, so that the change log records it (replay
        // gives it back): only while a change is captured, else the rule draws as ever.
        if params.interaction.identifier == nil, ChangeCapture.isCapturing {
            params.interaction.identifier = ChangeCapture.draw { UUID().uuidString.lowercased() }
        }
        return try HeraldState.prepareDonation(params)
    }
}
