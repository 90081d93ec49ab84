/// Who sent a request: the peer credentials read with SO_PEERCRED when the connection
/// was accepted, and whether they make the caller an administrator.
///
/// Data is namespaced by (uid, app): a caller only ever sees its own uid's interactions.
package struct Caller: Sendable, Hashable {
    package var uid: UInt32
    package var gid: UInt32
    package var pid: Int32
    /// uid 0, the daemon's own uid, or a member of `--admin-group`.
    package var isAdministrator: Bool

    package init(uid: UInt32, gid: UInt32, pid: Int32, isAdministrator: Bool) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.isAdministrator = isAdministrator
    }
}
