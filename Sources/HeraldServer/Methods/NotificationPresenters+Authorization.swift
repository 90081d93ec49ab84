import FoundationEssentials
import HeraldCore
import HeraldProtocol

extension NotificationPresenters {
    /// Tells the presenters of `uid` what became of (uid, app)'s authorization request,
    /// now that its authorization is `authorization`.
    func tellAuthorization(_ audit: AuditRecord, uid: UInt32, app: String, authorization: AuthorizationStatus, now: Date) {
        switch audit.authorizationRequest {
        case .recorded?:
            authorizationRequested(AuthorizationRequested(uid: uid, app: app, requestedAt: now))
        case .answered?:
            guard let requestedAt = audit.authorizationRequestedAt else { return }
            authorizationAnswered(
                AuthorizationAnswered(uid: uid, app: app, authorizationStatus: authorization, requestedAt: requestedAt, answeredAt: now))
        case .waiting?, nil:
            break
        }
    }
}
