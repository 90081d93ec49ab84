import HeraldProtocol

/// The standing grants heraldd gave this gateway, one per app (``StandingGrant``): while
/// one holds, the app's plain notifications are shown first and heraldd told after, in the
/// same `update-content`.
///
/// A grant is taken from the answer to the app's latest notification only: an answer to an
/// earlier one was made before the later ones were counted. It ends a quarter second early
/// on this side, so that what is shown under it reaches heraldd while it holds.
struct GatewayGrants {
    struct Grant {
        var id: Int
        var alertsLeft: Int
        var soundAlertsLeft: Int
        var endsAt: ContinuousClock.Instant
    }

    private var grants: [String: Grant] = [:]
    /// The number of each app's latest `update-content`.
    private var latest: [String: Int] = [:]
    private var sent = 0
    static let margin: Duration = .milliseconds(250)
    /// Apps remembered at most: past it, all are forgotten (each app's next notification
    /// goes through heraldd and brings its grant back).
    static let maximumApps = 1024

    /// Numbers the next `update-content` of `app`.
    mutating func sending(app: String) -> Int {
        if latest.count >= Self.maximumApps { latest.removeAll() }
        sent += 1
        latest[app] = sent
        return sent
    }

    /// Takes one use of `app`'s grant: its id, and whether this one comes with sound; nil
    /// when the app has none that holds now.
    mutating func use(app: String, now: ContinuousClock.Instant = .now) -> (id: Int, sound: Bool)? {
        guard var grant = grants[app], grant.alertsLeft > 0, now < grant.endsAt else {
            grants[app] = nil
            return nil
        }
        let sound = grant.soundAlertsLeft > 0
        grant.alertsLeft -= 1
        if sound { grant.soundAlertsLeft -= 1 }
        grants[app] = grant
        return (grant.id, sound)
    }

    /// heraldd answered `update-content` number `sequence` of `app` with `grant` (nil: none).
    mutating func answered(app: String, sequence: Int, grant: JSONObject?, now: ContinuousClock.Instant = .now) {
        guard latest[app] == sequence else { return }
        latest[app] = nil
        guard let grant, let id = grant["id"]?.numberValue?.intValue, let alerts = grant["alerts"]?.numberValue?.intValue,
            let soundAlerts = grant["soundAlerts"]?.numberValue?.intValue, let seconds = grant["seconds"]?.numberValue?.doubleValue
        else {
            grants[app] = nil
            return
        }
        grants[app] = Grant(id: id, alertsLeft: alerts, soundAlertsLeft: soundAlerts, endsAt: now + .milliseconds(Int(seconds * 1000)) - Self.margin)
    }

    /// `app`'s notification of another kind goes through heraldd, which drops its grant too.
    mutating func drop(app: String) {
        grants[app] = nil
    }

    /// heraldd revoked them, or the link went.
    mutating func dropAll() {
        grants.removeAll()
        latest.removeAll()
    }

    var isEmpty: Bool { grants.isEmpty }
}
