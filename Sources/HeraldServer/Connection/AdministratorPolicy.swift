import HeraldCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decides who is an administrator: uid 0, the daemon's own uid, and members of
/// `--admin-group` (by primary group or by the group database's membership).
package struct AdministratorPolicy: Sendable, Hashable {
    package var daemonUID: UInt32
    package var adminGID: UInt32?

    package init(daemonUID: UInt32 = getuid(), adminGID: UInt32? = nil) {
        self.daemonUID = daemonUID
        self.adminGID = adminGID
    }

    /// Looks up a group by name or number; nil when there is no such group.
    package static func groupID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        guard let group = getgrnam(name) else { return nil }
        return group.pointee.gr_gid
    }

    package func caller(for peer: PeerCredentials) -> Caller {
        Caller(uid: peer.uid, gid: peer.gid, pid: peer.pid, isAdministrator: isAdministrator(peer))
    }

    /// The caller of a peer: a verified app is never an administrator, whatever its uid.
    package func caller(for peer: PeerIdentity) -> Caller {
        let credentials = peer.credentials
        guard case .verified(let app) = peer.app else { return caller(for: credentials) }
        return Caller(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid, isAdministrator: false, app: app)
    }

    package func isAdministrator(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == daemonUID { return true }
        guard let adminGID else { return false }
        if peer.gid == adminGID { return true }
        return Self.supplementaryGroups(uid: peer.uid, primaryGID: peer.gid).contains(adminGID)
    }

    /// The groups the user is a member of, from the group database.
    private static func supplementaryGroups(uid: UInt32, primaryGID: UInt32) -> [UInt32] {
        var passwordEntry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var scratch = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid, &passwordEntry, &scratch, scratch.count, &result) == 0, result != nil,
            let name = passwordEntry.pw_name
        else { return [] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primaryGID, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primaryGID, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
