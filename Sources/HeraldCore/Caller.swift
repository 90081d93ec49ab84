/// Who sent a request: the peer credentials read with SO_PEERCRED when the connection
/// was accepted, the app the peer was verified to be, and whether the caller is an
/// administrator.
///
/// Data is namespaced by (uid, app): a caller only ever sees its own uid's interactions.
package struct Caller: Sendable, Hashable {
    package var uid: UInt32
    package var gid: UInt32
    package var pid: Int32
    /// uid 0, the daemon's own uid, or a member of `--admin-group` — and not a verified
    /// app: a sandboxed app run as root is still only that app.
    package var isAdministrator: Bool
    /// The app the peer was verified to be; nil for an unconfined process, the person.
    package var app: AppIdentity?

    package init(uid: UInt32, gid: UInt32, pid: Int32, isAdministrator: Bool, app: AppIdentity? = nil) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.isAdministrator = isAdministrator && app == nil
        self.app = app
    }
}
