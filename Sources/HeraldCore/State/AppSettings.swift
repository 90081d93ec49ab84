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

    struct Entry: Hashable, Sendable, Codable {
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

extension AppSettings: Codable {
    /// One record per (uid, app), sorted, so that equal settings encode equally.
    private struct Record: Codable {
        var uid: UInt32
        var app: String
        var authorization: AuthorizationStatus
        var capabilities: Capabilities
    }

    init(from decoder: any Decoder) throws {
        let records = try [Record](from: decoder)
        for record in records {
            update(uid: record.uid, app: record.app) {
                $0 = Entry(authorization: record.authorization, capabilities: record.capabilities)
            }
        }
        guard entries.count == records.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "A (uid, app) has settings twice."))
        }
    }

    func encode(to encoder: any Encoder) throws {
        let records =
            entries
            .map { Record(uid: $0.key.uid, app: $0.key.app, authorization: $0.value.authorization, capabilities: $0.value.capabilities) }
            .sorted { ($0.uid, $0.app) < ($1.uid, $1.app) }
        try records.encode(to: encoder)
    }
}
