import Foundation
import HeraldProtocol

/// The notification lists as a snapshot keeps them: one record per notification, each
/// uid's delivered ones in the order they were delivered (the order `--max-notifications`
/// evicts in), then its scheduled ones. Decoding puts them back in that order, so the list
/// restored is the list written; a snapshot without lists (written before them) restores
/// empty ones.
extension NotificationList: Codable {
    private struct Record: Codable {
        var uid: UInt32
        var notification: HeraldNotification
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd {
            let record = try container.decode(Record.self)
            guard notification(uid: record.uid, app: record.notification.app, identifier: record.notification.identifier) == nil
            else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "A notification is listed twice.")
            }
            do {
                try insert(record.notification, uid: record.uid, limit: .max)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.reason)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try forEachInOrder { uid, notification in
            try container.encode(Record(uid: uid, notification: notification))
        }
    }
}
