import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// `donate` records an interaction under the state's lock.
extension DonateMethod: ServedMethod {
    static func handle(_ params: DonateParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<DonateResult>
    {
        var call = try DonationCall(params, context, services)
        _ = services.state.withLock(logsChange: { $0.logsChange }) { state in call.step(&state) }
        return try call.finish()
    }

    static func register(in table: inout MethodTable, _ services: MethodServices) {
        table.register(Self.self, { params, context in try handle(params, context, services) }, staged: { params, context in
            try DonationCall(params, context, services)
        })
    }

    /// The part of `donate` made before the state's lock: its identifier drawn when it has
    /// none, and the rules that need no state. Replay makes it on its reading thread.
    static func prepare(_ params: DonateParams) throws(RuleError) -> PreparedDonation {
        var params = params
        // Drawn here rather than by the rule, so that the change log records it (replay
        // gives it back): only while a change is captured, else the rule draws as ever.
        if params.interaction.identifier == nil, ChangeCapture.current != nil {
            params.interaction.identifier = ChangeCapture.draw { UUID().uuidString.lowercased() }
        }
        return try HeraldState.prepareDonation(params)
    }
}

/// One `donate` around the state's lock: the rules that need no state before it, the store
/// in one step, and a retry's comparison after it.
///
/// The lock is taken once; a second time only for a retry, whose comparison with the
/// stored interaction is linear in its size (an 88,000-member call record takes
/// milliseconds) and so is made between the two.
struct DonationCall: LockedCall {
    private let donation: PreparedDonation
    private let caller: Caller
    private let services: MethodServices
    /// The request's change: its clock value is the one the step sees.
    private let change: PendingChange?
    /// What the step came to, once made.
    private var made: Result<DonationStep, RuleError>?

    /// Made while the request's change, if any, is captured.
    init(_ params: DonateParams, _ context: RequestContext, _ services: MethodServices) throws {
        donation = try DonateMethod.prepare(params)
        // The log keeps what is stored rather than the params: replay only stores it again.
        change = ChangeCapture.current
        change?.donation = donation
        caller = context.caller
        self.services = services
    }

    mutating func step(_ state: inout HeraldState) -> (logsChange: Bool, holdGoesOn: Bool) {
        let now = change?.now(services.clock) ?? services.clock.now()
        let made = Result { () throws(RuleError) in try state.donate(donation, caller: caller, now: now, retry: nil) }
        self.made = made
        // A retry's comparison changes nothing: the record goes with the step that does.
        return (made.logsChange, made.holdGoesOn)
    }

    func finish() throws -> MethodOutcome<DonateResult> {
        guard var step = try made?.get() else { preconditionFailure("A donation finishes after its step.") }
        while true {
            switch step {
            case .done(let result, _): return donation.outcome(result)  // What it evicted is freed here.
            case .compare(let stored):
                let retry = DonationRetry.compare(donation, with: stored)
                step = try services.state.withLock(logsChange: { $0.logsChange }) { state throws(RuleError) in
                    try state.donate(donation, caller: caller, now: services.clock.now(), retry: retry)
                }
            }
        }
    }
}

extension DonationStep {
    /// Whether the change log records the step: a retry's comparison changes nothing.
    fileprivate var logsChange: Bool {
        if case .done = self { true } else { false }
    }
}

extension Result<DonationStep, RuleError> {
    /// Whether the change log records the step (a refused one changed nothing).
    fileprivate var logsChange: Bool {
        (try? get())?.logsChange ?? false
    }

    /// Whether the step left no retry to compare, so the next request's step may follow
    /// in the same hold.
    fileprivate var holdGoesOn: Bool {
        if case .success(.compare) = self { false } else { true }
    }
}
