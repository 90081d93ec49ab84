import Foundation
import HeraldCore
import HeraldProtocol

extension MethodTable {
    /// The methods of Focus authorization and capabilities, and whom each one tells: the
    /// app's `focus-changed` subscribers when its authorization changes, the uid's
    /// presenters when a request is recorded (`authorization-requested`) or answered
    /// (`authorization-answered`).
    mutating func registerAuthorizationMethods(
        _ environment: MethodEnvironment, subscriptions: FocusSubscriptions, presenters: NotificationPresenters
    ) {
        let state = environment.state
        let clock = environment.clock
        register(RequestFocusMethod.self) { params, context in
            let now = clock.now()
            let uid = context.caller.uid
            // Only a decision of the policy changes what other subscribers are told.
            let (outcome, current, decided) = try state.withLock { state throws(RuleError) in
                let outcome = try state.requestFocus(params, caller: context.caller, now: now)
                let current = FocusSubscriptions.Status(state.focusView, uid: uid, app: params.app, now: now)
                return (outcome, current, outcome.audit.authorization == nil ? nil : state.focusView)
            }
            // The other subscribers of this (uid, app) hear of a decision the policy made;
            // this connection subscribes after, with the status its result gives.
            if let decided {
                subscriptions.refresh(from: decided, now: now)
            }
            Self.tellPresenters(outcome.audit, uid: uid, app: params.app, authorization: current.authorization, now: now, presenters: presenters)
            if params.subscribe == true, let connection = context.connection {
                subscriptions.subscribe(connection, uid: uid, app: params.app, current: current)
            }
            return outcome
        }
        register(SetFocusAuthorizationMethod.self) { params, context in
            let now = clock.now()
            let (outcome, view) = try state.withLock { state throws(RuleError) in
                (try state.setFocusAuthorization(params, caller: context.caller, now: now), state.focusView)
            }
            subscriptions.refresh(from: view, now: now)
            Self.tellPresenters(
                outcome.audit, uid: outcome.result.uid, app: params.app, authorization: outcome.result.status, now: now, presenters: presenters)
            return outcome
        }
        register(SetCapabilitiesMethod.self) { params, context in
            try state.withLock { state throws(RuleError) in try state.setCapabilities(params, caller: context.caller, now: clock.now()) }
        }
        register(GetAppSettingsMethod.self) { params, context in
            try state.read { state in
                Result { () throws(RuleError) in try state.appSettings(params, caller: context.caller) }
            }.get()
        }
        register(ListAuthorizationRequestsMethod.self) { params, context in
            try state.read { state in
                Result { () throws(RuleError) in try state.listAuthorizationRequests(params, caller: context.caller) }
            }.get()
        }
    }

    /// Tells the presenters of `uid` what became of (uid, app)'s authorization request,
    /// now that its authorization is `authorization`.
    private static func tellPresenters(
        _ audit: AuditRecord, uid: UInt32, app: String, authorization: AuthorizationStatus, now: Date, presenters: NotificationPresenters
    ) {
        switch audit.authorizationRequest {
        case .recorded?:
            presenters.authorizationRequested(AuthorizationRequested(uid: uid, app: app, requestedAt: now))
        case .answered?:
            guard let requestedAt = audit.authorizationRequestedAt else { return }
            presenters.authorizationAnswered(
                AuthorizationAnswered(uid: uid, app: app, authorizationStatus: authorization, requestedAt: requestedAt, answeredAt: now))
        case .waiting?, nil:
            break
        }
    }
}
