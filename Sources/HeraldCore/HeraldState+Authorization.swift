import FoundationEssentials
import HeraldProtocol

/// Focus authorization and capabilities: each (uid, app)'s, decided by that uid (the
/// person), or by an administrator for any uid.
///
/// Apple asks the person once, in a prompt, whether an app may share their Focus status,
/// and lets them switch an app's Time Sensitive notifications; the entitlement to send
/// critical alerts is the platform's. So here: a caller decides authorization,
/// communication and timeSensitive for its own uid; `critical` and `restricted` are an
/// administrator's; naming another uid is an administrator's (error 1006 otherwise).
extension HeraldState {
    /// The Focus authorization of (uid, app): `notDetermined` until someone decides.
    package func authorizationStatus(uid: UInt32, app: String) -> AuthorizationStatus {
        settings.authorization(uid: uid, app: app)
    }

    /// What `request-focus` does to the authorization: applies the daemon's policy when the
    /// app asks (`requestAuthorization: true`) and nobody has decided yet. Under `prompt`
    /// it records a request for the person to answer — once: asking again while it waits
    /// records nothing new, and a decided app is never asked about again. Returns the
    /// status now, and notes in `audit` what changed.
    mutating func authorizationOnRequest(
        _ p: RequestFocusParams, caller: Caller, now: Date, audit: inout AuditRecord
    ) throws(RuleError) -> AuthorizationStatus {
        let status = settings.authorization(uid: caller.uid, app: p.app)
        guard p.requestAuthorization == true, status == .notDetermined else { return status }
        audit.settingUID = caller.uid
        let decided: AuthorizationStatus
        switch configuration.focusAuthorizationPolicy {
        case .prompt:
            if authorizationRequests.requestedAt(uid: caller.uid, app: p.app) != nil {
                audit.authorizationRequest = .waiting
            } else {
                try requireRoomForRequest(p.app, uid: caller.uid)
                _ = authorizationRequests.record(uid: caller.uid, app: p.app, at: now)
                audit.authorizationRequest = .recorded
            }
            return .notDetermined
        case .allow: decided = .authorized
        case .deny: decided = .denied
        }
        try requireRoomForSetting(p.app, uid: caller.uid)
        settings.setAuthorization(decided, uid: caller.uid, app: p.app)
        audit.previousAuthorization = status.rawValue
        audit.authorization = decided.rawValue
        // A request made under `prompt` before a restart with another policy is answered now.
        if let requestedAt = authorizationRequests.clear(uid: caller.uid, app: p.app) {
            audit.authorizationRequest = .answered
            audit.authorizationRequestedAt = requestedAt
        }
        return decided
    }

    /// `set-focus-authorization`: decides a (uid, app)'s Focus authorization — the person's
    /// answer to the prompt — and clears its waiting request. The uid defaults to the
    /// caller's; another uid is an administrator's, and so is `restricted`: a
    /// non-administrator can neither set it nor change an app an administrator restricted.
    package mutating func setFocusAuthorization(
        _ p: SetFocusAuthorizationParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetFocusAuthorizationResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        try AppName.validate(p.app)
        let previous = settings.authorization(uid: uid, app: p.app)
        if !caller.isAdministrator, p.status == .restricted || previous == .restricted {
            throw RuleError.routineRefusal(
                p.status == .restricted
                    ? "Only administrators may restrict an app's Focus authorization."
                    : "An administrator restricted \(p.app)'s Focus authorization; only an administrator may change it.",
                at: ["status"]
            )
        }
        try requireRoomForSetting(p.app, uid: uid)
        settings.setAuthorization(p.status, uid: uid, app: p.app)
        var audit = AuditRecord(app: p.app)
        audit.settingUID = uid
        audit.previousAuthorization = previous.rawValue
        audit.authorization = p.status.rawValue
        if let requestedAt = authorizationRequests.clear(uid: uid, app: p.app) {
            audit.authorizationRequest = .answered
            audit.authorizationRequestedAt = requestedAt
        }
        return MethodOutcome(result: SetFocusAuthorizationResult(app: p.app, uid: uid, status: p.status), audit: audit)
    }

    /// `get-app-settings`: a (uid, app)'s authorization, capabilities and waiting request.
    package func appSettings(_ p: GetAppSettingsParams, caller: Caller) throws(RuleError) -> MethodOutcome<GetAppSettingsResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        try AppName.validate(p.app)
        var audit = AuditRecord(app: p.app)
        audit.settingUID = uid
        let result = GetAppSettingsResult(
            app: p.app, uid: uid,
            authorizationStatus: settings.authorization(uid: uid, app: p.app),
            capabilities: settings.capabilities(uid: uid, app: p.app),
            authorizationRequestedAt: authorizationRequests.requestedAt(uid: uid, app: p.app)
        )
        return MethodOutcome(result: result, audit: audit)
    }

    /// `list-authorization-requests`: the waiting requests of the caller's uid, of the uid
    /// an administrator names, or of every uid for an administrator without one.
    package func listAuthorizationRequests(
        _ p: ListAuthorizationRequestsParams, caller: Caller
    ) throws(RuleError) -> MethodOutcome<ListAuthorizationRequestsResult> {
        let uid = caller.isAdministrator ? p.uid : try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        var audit = AuditRecord()
        audit.settingUID = uid
        return MethodOutcome(result: ListAuthorizationRequestsResult(requests: authorizationRequests.list(uid: uid)), audit: audit)
    }

    /// Refuses settings of a new app past `--max-apps-per-uid` apps with settings; an app
    /// set back to the defaults frees its place.
    mutating func requireRoomForSetting(_ app: String, uid: UInt32) throws(RuleError) {
        let limit = configuration.maxAppsPerUID
        let held = settings.appCount(of: uid)
        guard held >= limit, !settings.contains(uid: uid, app: app) else { return }
        fairShares.appsRefused += 1
        throw RuleError(
            .invalidParams,
            "This uid already holds settings of \(held) apps, the most it may (--max-apps-per-uid \(limit)); set an app back to notDetermined and the default capabilities to free its place.",
            at: ["app"],
            limit: limit
        )
    }

    /// Refuses a new authorization request past `--max-apps-per-uid` waiting ones of the uid.
    private mutating func requireRoomForRequest(_ app: String, uid: UInt32) throws(RuleError) {
        let limit = configuration.maxAppsPerUID
        let held = authorizationRequests.count(of: uid)
        guard held >= limit else { return }
        fairShares.appsRefused += 1
        throw RuleError(
            .invalidParams,
            "This uid already has \(held) Focus authorization requests waiting, the most it may (--max-apps-per-uid \(limit)); answer some with set-focus-authorization.",
            at: ["requestAuthorization"],
            limit: limit
        )
    }
}

// MARK: Snapshot

extension HeraldState {
    /// A Focus authorization request waiting for an answer.
    package typealias StoredAuthorizationRequest = AuthorizationRequested

    /// Every waiting request, oldest first, so that equal states are written equally.
    package var storedAuthorizationRequests: [StoredAuthorizationRequest] {
        authorizationRequests.list(uid: nil)
    }

    /// False when a (uid, app) waits twice, or waits though its authorization is decided
    /// (the settings are restored first).
    package mutating func restoreAuthorizationRequests(_ stored: [StoredAuthorizationRequest]) -> Bool {
        var restored = AuthorizationRequests()
        for request in stored {
            guard settings.authorization(uid: request.uid, app: request.app) == .notDetermined,
                restored.record(uid: request.uid, app: request.app, at: request.requestedAt)
            else { return false }
        }
        authorizationRequests = restored
        return true
    }
}
