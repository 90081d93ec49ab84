import HeraldCore
import HeraldProtocol

/// `release-focus-hold` ends a hold before its connection closes; heraldd releases a
/// closed connection's holds through the same rule, logged as this method.
extension ReleaseFocusHoldMethod: ServedMethod {
    static func handle(
        _ params: ReleaseFocusHoldParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SetFocusResult> {
        let outcome = try release(params.hold, caller: context.caller, services)
        services.holds.forget(params.hold)
        return outcome
    }

    /// Ends `caller`'s hold `hold` and journals its end.
    private static func release(
        _ hold: String, caller: Caller, _ services: MethodServices
    ) throws(RuleError) -> MethodOutcome<SetFocusResult> {
        var released: FocusHoldInfo?
        let outcome = try FocusChangingCall(services).run { state, now throws(RuleError) in
            released = state.focusHolds(uid: caller.uid).first { $0.hold == hold }
            return try state.releaseFocusHold(ReleaseFocusHoldParams(hold: hold), caller: caller, now: now)
        }
        if let released {
            services.environment.recordFocusHold(FocusHoldEvent(uid: caller.uid, hold: released, began: false))
        }
        return outcome
    }

    /// Ends the holds of a connection that closed, each as a `release-focus-hold` of its
    /// caller in the change log.
    static func releaseClosed(_ holds: [(caller: Caller, hold: String)], _ services: MethodServices) {
        for (caller, hold) in holds {
            guard services.environment.capturesChanges else {
                _ = try? release(hold, caller: caller, services)
                continue
            }
            var params: [UInt8] = []
            JSONValue.object(["hold": .string(hold)]).write(to: &params)
            ChangeCapture.run(PendingChange(method: name, caller: caller, params: params)) {
                _ = try? release(hold, caller: caller, services)
            }
        }
    }
}
