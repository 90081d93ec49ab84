import Foundation
import HeraldProtocol

/// The state as a snapshot keeps it: interactions (with the app names they refer to),
/// the Focus and its activation, the silenced-conversation marks, the summary, each
/// (uid, app)'s authorization and capabilities, and the notification lists. The configuration is not encoded, and
/// the call history is rebuilt as the interactions are inserted.
extension HeraldState: Codable {
    private enum CodingKeys: String, CodingKey {
        case interactions, focus, silenced, summary, settings, notifications
    }

    /// Decodes with the default configuration; set `configuration` afterwards.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        self.interactions = try container.decode(InteractionStore.self, forKey: .interactions)
        self.focus = try container.decode(FocusState.self, forKey: .focus)
        self.silenced = try container.decode(SilencedConversations.self, forKey: .silenced)
        self.summary = try container.decode(SummarySchedule.self, forKey: .summary)
        self.settings = try container.decode(AppSettings.self, forKey: .settings)
        self.notifications = try container.decodeIfPresent(NotificationList.self, forKey: .notifications) ?? NotificationList()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(interactions, forKey: .interactions)
        try container.encode(focus, forKey: .focus)
        try container.encode(silenced, forKey: .silenced)
        try container.encode(summary, forKey: .summary)
        try container.encode(settings, forKey: .settings)
        try container.encode(notifications, forKey: .notifications)
    }
}

extension InteractionStore: Codable {
    /// `records` is an array of `Record`s in JSON, of tagged values in binary snapshots
    /// written before record chunks; `recordChunks` what binary snapshots hold now.
    private enum CodingKeys: String, CodingKey {
        case apps, records, recordChunks
    }

    /// One stored interaction, oldest donation first; `app` indexes `apps`.
    private struct Record: Codable {
        var uid: UInt32
        var app: AppNameTable.ID
        var donatedAt: Date
        var interaction: Interaction
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = try container.decode([String].self, forKey: .apps)
        self.init()
        for name in names {
            _ = appID(interning: name)
        }
        // Records refer to apps by position: a name listed twice would shift them.
        guard apps.names.count == names.count else {
            throw DecodingError.dataCorruptedError(forKey: .apps, in: container, debugDescription: "An app name is listed twice.")
        }
        if let binary = decoder as? BinaryStateDecoding {
            let keyed = try BinaryKeyedDecoding<CodingKeys>(decoder: binary)
            if keyed.contains(.recordChunks) {
                var chunks = try BinaryUnkeyedDecoding(decoder: try binary.child(at: try keyed.offset(of: .recordChunks)))
                try decodeRecordChunks(from: &chunks, payload: binary.source.bytes, appCount: names.count)
            } else {
                var records = try BinaryUnkeyedDecoding(decoder: try binary.child(at: try keyed.offset(of: .records)))
                try decodeLegacyRecords(from: &records, appCount: names.count)
            }
            return
        }
        let records = try container.decode([Record].self, forKey: .records)
        for record in records {
            guard Int(record.app) < names.count, record.interaction.identifier != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .records,
                    in: container,
                    debugDescription: "A record names an unknown app or has no identifier."
                )
            }
            insert(record.interaction, uid: record.uid, app: record.app, donatedAt: record.donatedAt)
        }
        try Self.checkNoKeyTwice(count: count, records: records.count)
    }

    /// A key stored twice replaces the first record: damage, not a state to serve.
    static func checkNoKeyTwice(count: Int, records: Int) throws {
        guard count == records else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Two records have the same key."))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apps.names, forKey: .apps)
        if let binary = encoder as? BinaryStateEncoding {
            var chunks = binary.unkeyedMember(CodingKeys.recordChunks)
            return try encodeRecordChunks(into: &chunks)
        }
        var records: [Record] = []
        records.reserveCapacity(count)
        forEach { key, stored in
            records.append(Record(uid: key.uid, app: key.app, donatedAt: stored.donatedAt, interaction: stored.interaction))
        }
        try container.encode(records, forKey: .records)
    }
}
