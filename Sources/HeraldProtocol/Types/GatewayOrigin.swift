/// Which of Herald's gateways passed a notification on, and what verified the app it
/// speaks for (`update-content`'s `gateway`): herald-notify, for an app that called
/// `org.freedesktop.Notifications` or the portal, rather than the app itself.
///
/// Only the person's own connections (no verified app) may give it: a gateway is the
/// person's process, and vouches for the app as the person.
package struct GatewayOrigin: Codable, Sendable, Hashable {
    package var name: GatewayName
    /// What the gateway verified the app by; absent when it named the app from the
    /// notification's own hints (unverified).
    package var appVerifiedBy: GatewayVerification?

    package init(name: GatewayName, appVerifiedBy: GatewayVerification? = nil) {
        self.name = name
        self.appVerifiedBy = appVerifiedBy
    }
}

/// The gateway: `freedesktop` (`org.freedesktop.Notifications` on the session bus) or
/// `portal` (xdg-desktop-portal's Notification backend).
package enum GatewayName: String, JSONEnum, Hashable {
    case freedesktop
    case portal
}

/// What a gateway verified an app by: the sender's process, as heraldd verifies its own
/// peers (`flatpak`, `snap`, `systemd-unit`), or the portal's app id (`portal`).
package enum GatewayVerification: String, JSONEnum, Hashable {
    case flatpak
    case snap
    case systemdUnit = "systemd-unit"
    case portal
}

extension GatewayOrigin: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            GatewayOrigin(name: try members.required("name"), appVerifiedBy: try members.optional("appVerifiedBy"))
        }
    }
}
