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

    init() {}

    func authorization(uid: UInt32, app: String) -> AuthorizationStatus {
        entries[Key(uid: uid, app: app)]?.authorization ?? .notDetermined
    }

    mutating func setAuthorization(_ status: AuthorizationStatus, uid: UInt32, app: String) {
        entries[Key(uid: uid, app: app), default: Entry()].authorization = status
    }

    func capabilities(uid: UInt32, app: String) -> Capabilities {
        entries[Key(uid: uid, app: app)]?.capabilities ?? .defaults
    }

    mutating func setCapabilities(_ capabilities: Capabilities, uid: UInt32, app: String) {
        entries[Key(uid: uid, app: app), default: Entry()].capabilities = capabilities
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
            entries[Key(uid: record.uid, app: record.app)] = Entry(
                authorization: record.authorization,
                capabilities: record.capabilities
            )
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
