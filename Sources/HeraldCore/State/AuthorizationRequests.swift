import FoundationEssentials
import HeraldProtocol

/// The Focus authorization requests waiting for a person's answer: what `request-focus`
/// with `requestAuthorization: true` records under the `prompt` policy, and what
/// `set-focus-authorization` for that (uid, app) clears.
///
/// One request per (uid, app), the first one's time kept: asking again while it waits
/// records nothing new, so a desktop prompts once. Each uid holds at most `limit` requests
/// (`--max-apps-per-uid`, the bound on the apps a uid holds settings of), so an app that
/// asks under ever new names cannot grow the state without end.
struct AuthorizationRequests: Sendable {
    /// Each uid's waiting requests: when each app asked.
    private var byUID: [UInt32: [String: Date]] = [:]

    init() {}

    /// How many requests wait, over every uid.
    var count: Int { byUID.values.reduce(0) { $0 + $1.count } }

    /// When (uid, app)'s waiting request was made; nil when none waits.
    func requestedAt(uid: UInt32, app: String) -> Date? {
        byUID[uid]?[app]
    }

    /// How many requests of `uid` wait.
    func count(of uid: UInt32) -> Int {
        byUID[uid]?.count ?? 0
    }

    /// Records a request of (uid, app) made at `now`; false when one waits already.
    mutating func record(uid: UInt32, app: String, at now: Date) -> Bool {
        guard byUID[uid]?[app] == nil else { return false }
        byUID[uid, default: [:]][app] = now
        return true
    }

    /// Clears (uid, app)'s request; the time it was made, nil when none waited.
    mutating func clear(uid: UInt32, app: String) -> Date? {
        guard let requestedAt = byUID[uid]?.removeValue(forKey: app) else { return nil }
        if byUID[uid]?.isEmpty == true { byUID.removeValue(forKey: uid) }
        return requestedAt
    }

    /// The requests of `uid` (every uid's when nil), oldest first, then by uid and app, so
    /// that equal states list equally.
    func list(uid: UInt32?) -> [AuthorizationRequested] {
        let uids = uid.map { [$0] } ?? Array(byUID.keys)
        return uids.flatMap { uid in
            (byUID[uid] ?? [:]).map { AuthorizationRequested(uid: uid, app: $0.key, requestedAt: $0.value) }
        }.sorted { ($0.requestedAt, $0.uid, $0.app) < ($1.requestedAt, $1.uid, $1.app) }
    }
}
