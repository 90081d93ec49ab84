/// The app a connection's peer was verified to be, from what the system set up around it
/// rather than from anything the app wrote: the way xdg-desktop-portal names its callers.
///
/// A connection with one speaks only as that app and is never the person; a connection
/// without one is the person (a shell, `heraldctl`, `herald-notify`).
package struct AppIdentity: Sendable, Hashable {
    /// Where the identity came from, strongest first.
    package enum Source: String, Sendable, Hashable, CaseIterable {
        /// A Snap's AppArmor label: set by the kernel's confinement, which the process
        /// cannot change or leave.
        case snap
        /// `/.flatpak-info` at the root of a Flatpak sandbox: written by `flatpak run`
        /// and read-only inside it.
        case flatpak
        /// The systemd unit a desktop launched the app into (`app-<launcher>-<id>-….scope`):
        /// a name whoever starts the unit chooses, so as strong as the launcher.
        case systemdUnit = "systemd-unit"
    }

    /// The app's identifier, such as `org.example.chat`; `snap.<name>` for a Snap.
    package var id: String
    package var source: Source

    package init(id: String, source: Source) {
        self.id = id
        self.source = source
    }
}
