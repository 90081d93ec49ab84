import HeraldDesktop

/// Notifications sandboxed apps send through xdg-desktop-portal (``PortalBackend``): each
/// filed by its app and the portal's id of it, passed on as an app's `Notify` is, and
/// taken back by the portal's `RemoveNotification`.
extension NotificationGateway {
    /// Files and passes on a notification from the portal backend: the same (app, portal
    /// id) again replaces it.
    func passPortal(app: String, origin: GatewayRecords.PortalOrigin, notification: FreedesktopNotification, verifiedBy: String?) {
        let key = Self.portalKey(app: app, origin.app, origin.id)
        let id = records.id(for: key) ?? records.newID()
        let record = GatewayRecords.Record(
            id: id, sender: "", app: app, verifiedBy: verifiedBy, identifier: key.identifier, notification: notification,
            directID: records[id]?.directID, portal: origin
        )
        records.insert(record)
        pass(record)
    }

    /// Takes a portal notification back (`RemoveNotification`).
    func removePortal(app: String, portalApp: String, portalID: String) {
        guard let id = records.id(for: Self.portalKey(app: app, portalApp, portalID)), let record = records.remove(id) else { return }
        closeDirectly(record)
        withdraw(record)
    }

    /// A portal notification's key in heraldd's list: its id is the app's own text, so the
    /// list has a digest of it.
    private static func portalKey(app: String, _ portalApp: String, _ portalID: String) -> NotificationKey {
        NotificationKey(app: app, identifier: "portal-" + FreedesktopNotification.digest(portalApp + "\u{0}" + portalID))
    }
}
