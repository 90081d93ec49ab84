import HeraldProtocol

/// What belongs to a (uid, app): its Focus authorization and its capabilities.
///
/// Only apps someone decided about are stored; the rest have the defaults
/// (`notDetermined`; communication and timeSensitive on, critical off), and an entry set
/// back to them is forgotten.
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

    /// Changes the entry of (uid, app), made with the defaults when there is none. An entry
    /// back at the defaults is forgotten, so that it no longer counts against
    /// `--max-apps-per-uid`.
    private mutating func update(uid: UInt32, app: String, _ change: (inout Entry) -> Void) {
        let key = Key(uid: uid, app: app)
        var entry = entries[key] ?? Entry()
        change(&entry)
        switch (entries[key] != nil, entry != Entry()) {
        case (false, true): appCounts[uid, default: 0] += 1
        case (true, false):
            appCounts[uid, default: 1] -= 1
            if appCounts[uid] == 0 { appCounts.removeValue(forKey: uid) }
        default: break
        }
        entries[key] = entry == Entry() ? nil : entry
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
