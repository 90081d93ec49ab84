import HeraldCore
import HeraldProtocol

/// A method's call in three parts around the state's lock, so that the requests a client
/// pipelined in one read share one hold of it (``RequestRun``): prepared before the hold,
/// its step in it, finished after. Answered alone, a call is the same three parts with a
/// hold of its own.
protocol LockedCall<MethodResult>: SendableMetatype {
    associatedtype MethodResult: Sendable

    /// Applies the call's step to `state`, under the lock: whether the change log records
    /// it (a step that only read records nothing), and whether the hold may go on to the
    /// next request's step: false when this one left work that must come first, such as a
    /// donation's retry comparing outside the lock and storing again.
    mutating func step(_ state: inout HeraldState) -> (logsChange: Bool, holdGoesOn: Bool)

    /// After the hold: the work the step left, if any (in holds of its own), and the outcome.
    func finish() throws -> MethodOutcome<MethodResult>
}

/// A call prepared for a hold shared with the other requests of its read, as the request
/// processor sees it: its step, then its result written into the response.
protocol StagedRequest: AnyObject {
    /// The request's change, which the change log records with its step; nil when changes
    /// are not captured.
    var change: PendingChange? { get }

    /// The call's step, under the lock (``LockedCall/step(_:)``).
    func step(_ state: inout HeraldState) -> (logsChange: Bool, holdGoesOn: Bool)

    /// After the hold whose last step this was: the work it left, before any later
    /// request's step.
    func settle()

    /// The result written to `output`, and the journal's record of it.
    func answer(appendingTo output: inout [UInt8]) throws(RPCError) -> AuditRecord
}

/// Where a run's calls are staged: one class per request, holding its call between the parts.
final class StagedCall<Method: HeraldMethod, Call: LockedCall>: StagedRequest where Call.MethodResult == Method.Result {
    private var call: Call
    let change: PendingChange?
    private let grantsBack: (@Sendable () -> Void)?
    private let method: MethodCall<Method>
    private var leftWork = false
    private var outcome: Result<MethodOutcome<Method.Result>, any Error>?

    init(_ call: Call, change: PendingChange?, grantsBack: (@Sendable () -> Void)?, method: MethodCall<Method>) {
        self.call = call
        self.change = change
        self.grantsBack = grantsBack
        self.method = method
    }

    func step(_ state: inout HeraldState) -> (logsChange: Bool, holdGoesOn: Bool) {
        let step = call.step(&state)
        leftWork = !step.holdGoesOn
        return step
    }

    func settle() {
        // The work left takes the lock again: its change is the request's own for the log.
        let finish = { Result { try self.call.finish() } }
        outcome = leftWork ? change.map { ChangeCapture.run($0, finish) } ?? finish() : finish()
        grantsBack?()
    }

    func answer(appendingTo output: inout [UInt8]) throws(RPCError) -> AuditRecord {
        if outcome == nil { settle() }
        switch outcome! {
        case .success(let done): return try method.write(done, to: &output)
        case .failure(let error): throw MethodTable.rpcError(error, calling: Method.name)
        }
    }
}
