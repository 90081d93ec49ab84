import HeraldBus
import HeraldDesktop

/// The notifications the gateway passed on, by its own id and by their Herald key: whom
/// to answer (the sender's unique name on the person's bus) and what the app sent.
///
/// Kept after the sender leaves the bus (`notify-send` exits at once, and its next run
/// replaces by id), bounded: at most ``maximumRecords`` notifications and
/// ``maximumImageBytes`` of images in all; past either the oldest go first (their later
/// actions reach nobody, as a notification server's own limit would have it).
struct GatewayRecords {
    struct Record {
        var id: UInt32
        /// The sender's unique name on the person's session bus; empty for the portal's.
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
        /// Where a notification from the portal came from, and its buttons' targets.
        var portal: PortalOrigin?

        var key: NotificationKey { NotificationKey(app: app, identifier: identifier) }
        /// The bytes of its images (`image-data`, a portal's icon), counted against ``maximumImageBytes``.
        var imageBytes: Int { notification.hints.reduce(portal?.iconBytes ?? 0) { $0 + $1.value.byteCount } }
    }

    /// A portal notification's app id and id as the portal named them, its default
    /// action's name (the renderer's `default`), and the target of each action that has
    /// one (`ActionInvoked`'s parameter), by its key on the renderer.
    struct PortalOrigin {
        var app: String
        var id: String
        var defaultAction: String?
        /// The action of the button whose purpose is `im.reply-with-text`, shown as the
        /// renderer's inline reply.
        var replyAction: String? = nil
        var targets: [String: BusValue]
        /// Its icon when the portal sent its bytes (`("bytes", <ay>)`: an avatar, say), shown
        /// as the bubble's image.
        var icon: ImageSource? = nil

        var iconBytes: Int {
            if case .inline(let data, _)? = icon { data.count } else { 0 }
        }
    }

    static let maximumRecords = 4096
    static let maximumImageBytes = 64 << 20

    private var byID: [UInt32: (record: Record, insertion: Int)] = [:]
    private var idByKey: [NotificationKey: UInt32] = [:]
    private var idByDirectID: [UInt32: UInt32] = [:]
    /// Each insertion, oldest first: one no longer current (its id removed, or filed again
    /// since) is passed over.
    private var order: [(id: UInt32, insertion: Int)] = []
    private var orderStart = 0
    private var insertions = 0
    private var imageBytes = 0
    private var lastID: UInt32 = 0

    /// A new id: never 0, never one in use.
    mutating func newID() -> UInt32 {
        repeat { lastID = lastID == UInt32.max ? 1 : lastID + 1 } while byID[lastID] != nil
        return lastID
    }

    subscript(id: UInt32) -> Record? { byID[id]?.record }

    func id(for key: NotificationKey) -> UInt32? { idByKey[key] }
    func id(forDirect directID: UInt32) -> UInt32? { idByDirectID[directID] }

    /// Files `record`, replacing the one of its id; the oldest go past the bounds.
    mutating func insert(_ record: Record) {
        remove(record.id)
        insertions += 1
        byID[record.id] = (record, insertions)
        idByKey[record.key] = record.id
        if let direct = record.directID { idByDirectID[direct] = record.id }
        imageBytes += record.imageBytes
        order.append((record.id, insertions))
        while byID.count > Self.maximumRecords || imageBytes > Self.maximumImageBytes, let oldest = popOldest() {
            remove(oldest)
        }
        if orderStart > 1024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    mutating func setDirectID(_ directID: UInt32?, of id: UInt32) {
        guard var entry = byID[id] else { return }
        if let old = entry.record.directID { idByDirectID[old] = nil }
        entry.record.directID = directID
        if let directID { idByDirectID[directID] = id }
        byID[id] = entry
    }

    @discardableResult
    mutating func remove(_ id: UInt32) -> Record? {
        guard let record = byID.removeValue(forKey: id)?.record else { return nil }
        idByKey[record.key] = nil
        if let direct = record.directID { idByDirectID[direct] = nil }
        imageBytes -= record.imageBytes
        return record
    }

    private mutating func popOldest() -> UInt32? {
        while orderStart < order.count {
            let (id, insertion) = order[orderStart]
            orderStart += 1
            if byID[id]?.insertion == insertion { return id }
        }
        return nil
    }
}
