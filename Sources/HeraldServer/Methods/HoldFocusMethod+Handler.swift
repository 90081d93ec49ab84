import FoundationEssentials
import HeraldCore
import HeraldProcessIdentity
import HeraldProtocol

/// `hold-focus` turns a Focus on (see ``FocusChangingCall``) and ties the hold to the
/// connection it came on, which releases it when it closes (``FocusHolds``).
///
/// The hold's identifier and the holder's command name are drawn through the change log,
/// so that a replay takes the same hold, named as it was, for the release it logged.
extension HoldFocusMethod: ServedMethod {
    static func handle(
        _ params: HoldFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<HoldFocusResult> {
        let caller = context.caller
        let id = ChangeCapture.draw { UUID().uuidString.lowercased() }
        let command = ChangeCapture.draw { ProcessIdentity.commandName(pid: caller.pid) ?? "" }
        var taken: FocusHoldInfo?
        let outcome = try FocusChangingCall(services).run { state, now throws(RuleError) in
            let outcome = try state.holdFocus(params, caller: caller, id: id, command: command.isEmpty ? nil : command, now: now)
            taken = state.focusHolds(uid: caller.uid).last { $0.hold == id }
            return outcome
        }
        if let taken {
            services.environment.recordFocusHold(FocusHoldEvent(uid: caller.uid, hold: taken, began: true))
        }
        if let connection = context.connection {
            ReleaseFocusHoldMethod.releaseClosed(services.holds.add(id, caller: caller, to: connection), services)
        }
        return outcome
    }
}
