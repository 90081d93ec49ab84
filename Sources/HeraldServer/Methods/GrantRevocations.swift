import Dispatch
import HeraldCore
import HeraldProtocol
import NIOConcurrencyHelpers
import NIOPosix

/// Revocation before change: before heraldd applies a change of a uid whose gateway holds
/// standing grants, it revokes them (`grants-revoked`) and waits, off the event loop and
/// 50 ms at most, for the gateway's `release-grants`. Whatever the gateway showed under a
/// grant is then already on the connection ahead of that answer, and is decided before the
/// change, as it was shown.
///
/// Every request that changes the state counts, from any connection but the holder's own
/// (the gateway's own notifications come in order with its use of the grants); an
/// administrator's revokes every uid's. Past the 50 ms the grants are void, and what was
/// shown under one is decided again as it arrives: a bubble whose decision differs is
/// replaced by it or closed (`grantHonoured` false in the journal).
final class GrantRevocations: Sendable {
    /// How long a change waits for the gateway's answer.
    static let acknowledgementWait: DispatchTimeInterval = .milliseconds(50)
    private let waiting = NIOLockedValueBox([Int: DispatchSemaphore]())

    init() {}

    /// The uid whose grants a change by `context` revokes; nil for every uid's.
    private static func uid(_ context: RequestContext) -> UInt32? {
        context.caller.isAdministrator ? nil : context.caller.uid
    }

    /// Whether a change by `context` has grants to revoke first: it then leaves the event
    /// loop, to wait there. Asked twice a change (where it runs, and before it), so the
    /// common case, no gateway holding grants, takes no lock.
    func mustRevoke(_ context: RequestContext, state: SharedState) -> Bool {
        guard state.hasGrantHolders else { return false }
        let uid = Self.uid(context)
        return state.read { state in
            guard state.hasGrantHolder(uid: uid) else { return false }
            guard let connection = context.connection else { return true }
            return !state.holdsGrants(connection: connection.number)
        }
    }

    /// Revokes the grants a change by `context` could change and waits for the gateways'
    /// answers (never on an event loop: there it only revokes); returns what to run once
    /// the change is applied, nil when there was nothing to revoke.
    func revoke(before context: RequestContext, state: SharedState, presenters: NotificationPresenters) -> (@Sendable () -> Void)? {
        guard mustRevoke(context, state: state) else { return nil }
        let revocation = state.withLock { $0.revokeGrants(uid: Self.uid(context)) }
        let signals = revocation.told.map { told in
            let signal = DispatchSemaphore(value: 0)
            waiting.withLockedValue { $0[told.number] = signal }
            presenters.grantsRevoked(GrantsRevoked(uid: told.uid, revocation: told.number), to: ConnectionIdentity(number: told.connection))
            return signal
        }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            let deadline = DispatchTime.now() + Self.acknowledgementWait
            for signal in signals { _ = signal.wait(timeout: deadline) }
        }
        waiting.withLockedValue { waiting in
            for told in revocation.told { waiting[told.number] = nil }
        }
        return { state.withLock { $0.endGrantRevocation(revocation) } }
    }

    /// The gateway answered revocation `number`: true when a change was still waiting for it.
    func acknowledge(_ number: Int) -> Bool {
        guard let signal = waiting.withLockedValue({ $0.removeValue(forKey: number) }) else { return false }
        signal.signal()
        return true
    }
}

/// `release-grants`: the gateway's answer to `grants-revoked`.
extension ReleaseGrantsMethod: ServedMethod {
    static func handle(
        _ params: ReleaseGrantsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ReleaseGrantsResult> {
        MethodOutcome(result: ReleaseGrantsResult(awaited: services.grants.acknowledge(params.revocation)), audit: AuditRecord())
    }
}
