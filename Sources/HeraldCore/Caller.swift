/// Who sent a request: the peer credentials read with SO_PEERCRED when the connection
/// was accepted, and whether they make the caller an administrator.
///
/// Data is namespaced by (uid, app): a caller only ever sees its own uid's interactions.
public struct Caller: Sendable, Hashable {
    public var uid: UInt32
    public var gid: UInt32
    public var pid: Int32
    /// uid 0, the daemon's own uid, or a member of `--admin-group`.
    public var isAdministrator: Bool

    public init(uid: UInt32, gid: UInt32, pid: Int32, isAdministrator: Bool) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.isAdministrator = isAdministrator
    }
}
