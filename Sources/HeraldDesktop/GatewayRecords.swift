import HeraldBus

/// The notifications the gateway passed on, by its own id and by their Herald key: whom
/// to answer (the sender's unique name on the person's bus) and what the app sent.
///
/// Kept after the sender leaves the bus (`notify-send` exits at once, and its next run
/// replaces by id), bounded: at most ``maximumRecords`` notifications and
/// ``maximumImageBytes`` of images in all; past either the oldest go first (their later
/// actions reach nobody, as a notification server's own limit would have it).
package struct GatewayRecords {
    package struct Record {
        package var id: UInt32
        /// The sender's unique name on the person's session bus; empty for the portal's.
        package var sender: String
        package var app: String
        /// What verified the app (`flatpak`, `snap`, `systemd-unit`, `portal`); nil for an
        /// app named by its hints.
        package var verifiedBy: String?
        /// The notification's identifier in heraldd's list.
        package var identifier: String
        package var notification: FreedesktopNotification
        /// The renderer's id of the bubble shown directly (heraldd unreachable).
        package var directID: UInt32?
        /// Where a notification from the portal came from, and its buttons' targets.
        package var portal: PortalOrigin?

        package init(
            id: UInt32, sender: String, app: String, verifiedBy: String?, identifier: String, notification: FreedesktopNotification,
            directID: UInt32? = nil, portal: PortalOrigin? = nil
        ) {
            self.id = id
            self.sender = sender
            self.app = app
            self.verifiedBy = verifiedBy
            self.identifier = identifier
            self.notification = notification
            self.directID = directID
            self.portal = portal
        }

        package var key: NotificationKey { NotificationKey(app: app, identifier: identifier) }
        /// The bytes of its images (`image-data`, a portal's icon), counted against ``maximumImageBytes``.
        package var imageBytes: Int { notification.hints.reduce(portal?.iconBytes ?? 0) { $0 + $1.value.byteCount } }
    }

    /// A portal notification's app id and id as the portal named them, its default
    /// action's name (the renderer's `default`), and the target of each action that has
    /// one (`ActionInvoked`'s parameter), by its key on the renderer.
    package struct PortalOrigin {
        package var app: String
        package var id: String
        package var defaultAction: String?
        /// The action of the button whose purpose is `im.reply-with-text`, shown as the
        /// renderer's inline reply.
        package var replyAction: String? = nil
        package var targets: [String: BusValue]
        /// Its icon when the portal sent its bytes (`("bytes", <ay>)`: an avatar, say), shown
        /// as the bubble's image.
        package var icon: ImageSource? = nil

        package init(
            app: String, id: String, defaultAction: String?, replyAction: String? = nil, targets: [String: BusValue],
            icon: ImageSource? = nil
        ) {
            self.app = app
            self.id = id
            self.defaultAction = defaultAction
            self.replyAction = replyAction
            self.targets = targets
            self.icon = icon
        }

        package var iconBytes: Int {
            if case .inline(let data, _)? = icon { data.count } else { 0 }
        }
    }

    package static let maximumRecords = 4096
    package static let maximumImageBytes = 64 << 20

    private var byID: [UInt32: Record] = [:]
    private var idByKey: [NotificationKey: UInt32] = [:]
    private var idByDirectID: [UInt32: UInt32] = [:]
    /// The ids, oldest filing first.
    private var order = FilingOrder<UInt32>()
    private var imageBytes = 0
    private var lastID: UInt32 = 0

    package init() {}

    /// A new id: never 0, never one in use.
    package mutating func newID() -> UInt32 {
        repeat { lastID = lastID == UInt32.max ? 1 : lastID + 1 } while byID[lastID] != nil
        return lastID
    }

    package subscript(id: UInt32) -> Record? { byID[id] }

    package func id(for key: NotificationKey) -> UInt32? { idByKey[key] }
    package func id(forDirect directID: UInt32) -> UInt32? { idByDirectID[directID] }

    /// Files `record`, replacing the one of its id; the oldest go past the bounds.
    package mutating func insert(_ record: Record) {
        remove(record.id)
        byID[record.id] = record
        idByKey[record.key] = record.id
        if let direct = record.directID { idByDirectID[direct] = record.id }
        imageBytes += record.imageBytes
        order.file(record.id)
        while byID.count > Self.maximumRecords || imageBytes > Self.maximumImageBytes, let oldest = order.popFirst() {
            remove(oldest)
        }
    }

    /// The records filed.
    package var count: Int { byID.count }
    /// The entries the order of filings keeps (``FilingOrder/entryCount``).
    package var orderEntries: Int { order.entryCount }

    package mutating func setDirectID(_ directID: UInt32?, of id: UInt32) {
        guard var record = byID[id] else { return }
        if let old = record.directID { idByDirectID[old] = nil }
        record.directID = directID
        if let directID { idByDirectID[directID] = id }
        byID[id] = record
    }

    @discardableResult
    package mutating func remove(_ id: UInt32) -> Record? {
        guard let record = byID.removeValue(forKey: id) else { return nil }
        order.remove(id)
        idByKey[record.key] = nil
        if let direct = record.directID { idByDirectID[direct] = nil }
        imageBytes -= record.imageBytes
        return record
    }
}
