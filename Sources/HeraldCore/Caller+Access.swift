import HeraldProtocol

extension Caller {
    /// Refuses a method this caller may not call (``MethodAccess``), before its params are
    /// read: a verified app is neither the person nor an administrator, and under
    /// `--require-app-identity` only a verified app calls an app's methods.
    package func checkAccess(to method: String, _ access: MethodAccess, requireAppIdentity: Bool) throws(RuleError) {
        switch access {
        case .anyone:
            return
        case .app:
            guard requireAppIdentity, app == nil else { return }
            throw RuleError.routineRefusal(
                "\(method) is for verified apps on this daemon (--require-app-identity), and this connection's process has "
                    + "none: run the app as a Flatpak or a Snap, or launch it into an app-<launcher>-<app-id>-<random>.scope unit.",
                at: []
            )
        case .person:
            guard let app else { return }
            throw RuleError(
                .permissionDenied,
                "\(method) is the person's to call: app \(app.id), verified by \(app.source.evidence), may not change the "
                    + "person's settings or act for them.",
                at: []
            )
        case .administrator:
            guard !isAdministrator else { return }
            guard let app else {
                throw RuleError.routineRefusal("\(method) is for administrators: uid 0, the daemon's own uid, or members of its admin group.", at: [])
            }
            throw RuleError(
                .permissionDenied, "\(method) is for administrators: app \(app.id), verified by \(app.source.evidence), is not one.", at: [])
        }
    }

    /// Refuses params that name an app other than the caller's verified one — never a
    /// silent rewrite, so that the app hears which of the two ids was wrong.
    package func checkNamedApp(_ named: String?) throws(RuleError) {
        guard let app else { return }
        guard let named else {
            throw RuleError(
                .permissionDenied,
                "This connection is app \(app.id), verified by \(app.source.evidence): name it as app; every app's view is the person's.",
                at: ["app"]
            )
        }
        guard named != app.id else { return }
        throw RuleError(
            .permissionDenied,
            "This connection is app \(app.id), verified by \(app.source.evidence), and may speak only as itself, not as \(named).",
            at: ["app"]
        )
    }
}

extension AppIdentity.Source {
    /// What verified the identity, for a person reading an error.
    package var evidence: String {
        switch self {
        case .snap: "its Snap confinement"
        case .flatpak: "its Flatpak sandbox"
        case .systemdUnit: "its systemd unit"
        }
    }
}
