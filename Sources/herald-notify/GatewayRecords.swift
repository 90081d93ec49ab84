import HeraldDesktop

/// The notifications the gateway passed on, by its own id and by their Herald key: whom
/// to answer (the sender's unique name on the person's bus) and what the app sent.
///
/// Kept after the sender leaves the bus (`notify-send` exits at once, and its next run
/// replaces by id), bounded: at most ``maximumRecords`` notifications and
/// ``maximumImageBytes`` of images; past either the oldest go first (their later actions
/// reach nobody, as a notification server's own limit would have it).
struct GatewayRecords {
    struct Record {
        var id: UInt32
        /// The sender's unique name on the person's session bus.
        var sender: String
        var app: String
        /// What verified the app (`flatpak`, `snap`, `systemd-unit`, `portal`); nil for an
        /// app named by its hints.
        var verifiedBy: String?
        /// The notification's identifier in heraldd's list.
        var identifier: String
        var notification: FreedesktopNotification
        /// The renderer's id of the bubble shown directly (heraldd unreachable).
        var directID: UInt32?
        /// The portal's app id and notification id, for a notification from the portal.
        var portal: (app: String, id: String)?
        var imageBytes: Int
    }

    static let maximumRecords = 4096
    static let maximumImageBytes = 64 << 20

    private(set) var byID: [UInt32: Record] = [:]
    private var idByKey: [NotificationKey: UInt32] = [:]
    private var idByDirectID: [UInt32: UInt32] = [:]
    /// Ids oldest first; an id no longer in ``byID`` is passed over.
    private var order: [UInt32] = []
    private var orderStart = 0
    private var imageBytes = 0
    private var lastID: UInt32 = 0
    /// Evicted to stay within the bounds, since start.
    private(set) var evicted = 0

    /// A new id: never 0, never one in use.
    mutating func newID() -> UInt32 {
        repeat { lastID = lastID == UInt32.max ? 1 : lastID + 1 } while byID[lastID] != nil
        return lastID
    }

    subscript(id: UInt32) -> Record? { byID[id] }

    func id(for key: NotificationKey) -> UInt32? { idByKey[key] }
    func id(forDirect directID: UInt32) -> UInt32? { idByDirectID[directID] }

    mutating func insert(_ record: Record) {
        if let old = byID[record.id] { remove(old.id) }
        byID[record.id] = record
        idByKey[NotificationKey(app: record.app, identifier: record.identifier)] = record.id
        if let direct = record.directID { idByDirectID[direct] = record.id }
        imageBytes += record.imageBytes
        order.append(record.id)
        while byID.count > Self.maximumRecords || imageBytes > Self.maximumImageBytes, let oldest = popOldest() {
            remove(oldest)
            evicted += 1
        }
        if orderStart > 1024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    mutating func setDirectID(_ directID: UInt32?, of id: UInt32) {
        guard var record = byID[id] else { return }
        if let old = record.directID { idByDirectID[old] = nil }
        record.directID = directID
        if let directID { idByDirectID[directID] = id }
        byID[id] = record
    }

    @discardableResult
    mutating func remove(_ id: UInt32) -> Record? {
        guard let record = byID.removeValue(forKey: id) else { return nil }
        idByKey[NotificationKey(app: record.app, identifier: record.identifier)] = nil
        if let direct = record.directID { idByDirectID[direct] = nil }
        imageBytes -= record.imageBytes
        return record
    }

    private mutating func popOldest() -> UInt32? {
        while orderStart < order.count {
            let id = order[orderStart]
            orderStart += 1
            if byID[id] != nil { return id }
        }
        return nil
    }
}
