/// A standing grant: heraldd's word to the person's gateway (herald-notify) that the next
/// notifications of one app, of the plain kind, are delivered as alerts — the first
/// `soundAlerts` with sound, the rest without (the burst cooldown) — so the gateway shows
/// them before heraldd has seen them, and tells heraldd in the same `update-content`
/// (`grant`). heraldd made it by its own rules on that app's plain notification, and it
/// ends after `alerts` notifications or `seconds`, whichever comes first, or when heraldd
/// revokes it (`grants-revoked`). docs/operations.md says what the plain kind is.
package struct StandingGrant: Codable, Sendable, Hashable {
    /// The grant's number, unique for the life of the daemon.
    package var id: Int
    package var app: String
    /// How many notifications it covers.
    package var alerts: Int
    /// How many of the first of them come with sound; the rest come without (cooled down).
    package var soundAlerts: Int
    /// How long it holds from heraldd's answer: it ends before the uid's next due change
    /// (a Focus schedule, a summary, a snoozed notification's return) and before the app's
    /// burst could cool.
    package var seconds: Double

    package init(id: Int, app: String, alerts: Int, soundAlerts: Int, seconds: Double) {
        self.id = id
        self.app = app
        self.alerts = alerts
        self.soundAlerts = soundAlerts
        self.seconds = seconds
    }
}

extension StandingGrant: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("id", id)
        members.add("app", app)
        members.add("alerts", alerts)
        members.add("soundAlerts", soundAlerts)
        members.add("seconds", seconds)
    }
}

/// `update-content`'s `grant`: the gateway already showed this notification under standing
/// grant `id`, with sound or without (`sound`). heraldd decides it as it decides any, and
/// records that the grant decided it when its decision is what was shown.
package struct GrantUse: Codable, Sendable, Hashable {
    package var id: Int
    package var sound: Bool

    package init(id: Int, sound: Bool) {
        self.id = id
        self.sound = sound
    }
}

extension GrantUse: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            GrantUse(id: try members.required("id"), sound: try members.required("sound"))
        }
    }
}

/// `grants-revoked`: heraldd is about to apply a change of `uid` that could change what
/// its standing grants promise; the gateway stops using them and answers `release-grants`
/// with `revocation`.
package struct GrantsRevoked: Codable, Sendable, Hashable {
    package static let method = "grants-revoked"
    package var uid: UInt32
    package var revocation: Int

    package init(uid: UInt32, revocation: Int) {
        self.uid = uid
        self.revocation = revocation
    }
}
