/// Who may call a method: the column of the table in `Protocol/README.md` ("Who may call
/// what") and each method's `x-herald-access` in `openrpc.json`, which a test holds to
/// the descriptors.
///
/// Within a uid, a connection is either a verified app (a Flatpak, a Snap, an app a desktop
/// launched into its own systemd unit) or the person (everything else of that uid). As on
/// Apple platforms, an app speaks only for itself and only the person changes their settings.
package enum MethodAccess: String, Sendable, Hashable, CaseIterable {
    /// Every caller: a verified app, the person, an administrator.
    case anyone
    /// An app for itself: a verified app names only its own `app` member (1006 otherwise,
    /// naming both); the person and administrators name any app of theirs. Refused to callers
    /// without a verified app under `--require-app-identity`.
    case app
    /// The person: any caller of the uid without a verified app identity, and
    /// administrators (for any uid where the method takes `uid`); a verified app gets 1006.
    case person
    /// Administrators only: uid 0, the daemon's own uid, members of `--admin-group`, and
    /// never a verified app.
    case administrator

    /// The words of the Protocol docs' table for it.
    package var summary: String {
        switch self {
        case .anyone: "anyone"
        case .app: "an app for itself"
        case .person: "the person"
        case .administrator: "an administrator"
        }
    }
}
