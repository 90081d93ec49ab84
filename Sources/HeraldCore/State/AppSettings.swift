import HeraldProtocol

/// What belongs to a (uid, app): its Focus authorization and its capabilities.
///
/// Only apps someone decided about are stored; the rest have the defaults
/// (`notDetermined`; communication and timeSensitive on, critical off).
struct AppSettings: Sendable {
    struct Key: Hashable, Sendable {
        var uid: UInt32
        var app: String
    }

    struct Entry: Hashable, Sendable {
        var authorization: AuthorizationStatus = .notDetermined
        var capabilities: Capabilities = .defaults
    }

    private var entries: [Key: Entry] = [:]
    /// How many apps each uid has settings of; derived, so not encoded.
    private var appCounts: [UInt32: Int] = [:]

    init() {}

    /// Whether `uid` has settings of `app`.
    func contains(uid: UInt32, app: String) -> Bool {
        entries[Key(uid: uid, app: app)] != nil
    }

    /// How many apps `uid` has settings of.
    func appCount(of uid: UInt32) -> Int {
        appCounts[uid] ?? 0
    }

    /// The entry of (uid, app), made with the defaults when there is none.
    private mutating func update(uid: UInt32, app: String, _ change: (inout Entry) -> Void) {
        let key = Key(uid: uid, app: app)
        if entries[key] == nil {
            appCounts[uid, default: 0] += 1
        }
        change(&entries[key, default: Entry()])
    }

    func authorization(uid: UInt32, app: String) -> AuthorizationStatus {
        entries[Key(uid: uid, app: app)]?.authorization ?? .notDetermined
    }

    mutating func setAuthorization(_ status: AuthorizationStatus, uid: UInt32, app: String) {
        update(uid: uid, app: app) { $0.authorization = status }
    }

    func capabilities(uid: UInt32, app: String) -> Capabilities {
        entries[Key(uid: uid, app: app)]?.capabilities ?? .defaults
    }

    mutating func setCapabilities(_ capabilities: Capabilities, uid: UInt32, app: String) {
        update(uid: uid, app: app) { $0.capabilities = capabilities }
    }
}

extension AppSettings {
    /// Every entry, sorted by (uid, app): for a snapshot, so that equal settings are
    /// written equally.
    var entriesSorted: [(key: Key, entry: Entry)] {
        entries.map { (key: $0.key, entry: $0.value) }.sorted { ($0.key.uid, $0.key.app) < ($1.key.uid, $1.key.app) }
    }
}
