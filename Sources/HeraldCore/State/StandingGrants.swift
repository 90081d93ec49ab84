import FoundationEssentials

/// Each uid's standing grants to its gateway (herald-notify): per app, heraldd's word that
/// the app's next plain notifications are delivered as alerts, so the gateway shows them
/// before asking (``HeraldState/renewGrant(uid:app:holder:now:)``).
///
/// A grant is only as good as the state it was made in: before any other change of its
/// uid, heraldd revokes the uid's grants (``revoke(uid:)``), and issues none until the
/// change is applied (``endRevocation(uid:)``). Grants live in memory only: a restarted
/// heraldd has none, and a gateway that reconnects forgets its own.
struct StandingGrants: Sendable {
    struct Grant: Sendable {
        var id: Int
        var alertsLeft: Int
        var soundAlertsLeft: Int
        var endsAt: Date
    }

    /// One uid's grants, all held by one connection (`holder`, the server's number for it).
    struct Holder: Sendable {
        var connection: UInt64
        var grants: [String: Grant] = [:]
        /// Revocations under way: while one is, no grant is issued.
        var revoking = 0
        /// The connection closed while a revocation was under way: the holder goes when it ends.
        var closed = false
    }

    private(set) var holders: [UInt32: Holder] = [:]
    private var lastID = 0
    private var lastRevocation = 0

    /// The most notifications one grant covers: it is renewed with every one.
    static let maximumAlerts = 64

    /// Whether a grant may be issued to `connection` for `uid` now.
    func mayIssue(uid: UInt32) -> Bool {
        (holders[uid]?.revoking ?? 0) == 0
    }

    /// Records a new grant for `app`, held by `connection` (a new holder drops the last one's).
    mutating func issue(uid: UInt32, app: String, connection: UInt64, alerts: Int, soundAlerts: Int, endsAt: Date) -> Int {
        lastID += 1
        var holder = holders[uid] ?? Holder(connection: connection)
        if holder.connection != connection { holder = Holder(connection: connection, revoking: holder.revoking) }
        holder.grants[app] = Grant(id: lastID, alertsLeft: alerts, soundAlertsLeft: soundAlerts, endsAt: endsAt)
        holders[uid] = holder
        return lastID
    }

    /// Counts one use of grant `id` of `app` (with sound or not); false when it is not the
    /// app's grant now (revoked, replaced, spent or ended): the notification is decided as any.
    mutating func use(uid: UInt32, app: String, id: Int, sound: Bool, now: Date) -> Bool {
        guard var grant = holders[uid]?.grants[app], grant.id == id, grant.alertsLeft > 0, now <= grant.endsAt else { return false }
        grant.alertsLeft -= 1
        if sound { grant.soundAlertsLeft -= 1 }
        holders[uid]?.grants[app] = grant
        return true
    }

    /// Drops `app`'s grant (its notification that is not of the plain kind went through heraldd).
    mutating func drop(uid: UInt32, app: String) {
        holders[uid]?.grants[app] = nil
    }

    /// Starts a revocation of `uid`'s grants (every uid's when nil): drops them and issues no
    /// new one until ``endRevocation(_:)``.
    mutating func revoke(uid: UInt32?) -> GrantRevocation {
        var revocation = GrantRevocation()
        for key in uid.map({ [$0] }) ?? Array(holders.keys) {
            guard var holder = holders[key] else { continue }
            holder.revoking += 1
            revocation.uids.append(key)
            if !holder.grants.isEmpty {
                lastRevocation += 1
                revocation.told.append(.init(uid: key, connection: holder.connection, number: lastRevocation))
                holder.grants = [:]
            }
            holders[key] = holder
        }
        return revocation
    }

    /// The change that `revocation` was for is applied: its uids may have grants again.
    mutating func endRevocation(_ revocation: GrantRevocation) {
        for key in revocation.uids {
            guard var holder = holders[key] else { continue }
            holder.revoking = max(0, holder.revoking - 1)
            // A closed holder kept only for its revocation would otherwise send every later
            // change of the uid off the event loop, with nothing to revoke.
            holders[key] = holder.closed && holder.revoking == 0 ? nil : holder
        }
    }

    /// The holder's connection closed: its grants go (a revocation under way still ends).
    mutating func dropHolder(connection: UInt64) {
        for (uid, holder) in holders where holder.connection == connection {
            if holder.revoking == 0 {
                holders[uid] = nil
            } else {
                holders[uid]?.grants = [:]
                holders[uid]?.closed = true
            }
        }
    }

    /// Whether `uid` has a gateway that holds (or held) grants: its other changes wait for a revocation.
    func hasHolder(uid: UInt32?) -> Bool {
        uid.map { holders[$0] != nil } ?? !holders.isEmpty
    }

    /// The grants outstanding, for tests.
    func grantCount(uid: UInt32) -> Int {
        holders[uid]?.grants.count ?? 0
    }
}

/// A revocation under way: the uids whose grants wait for a change, and the holders told
/// (`grants-revoked`), whose `release-grants` the change waits for.
package struct GrantRevocation: Sendable {
    package struct Told: Sendable, Hashable {
        package var uid: UInt32
        package var connection: UInt64
        package var number: Int
    }

    package var uids: [UInt32] = []
    package var told: [Told] = []
}
