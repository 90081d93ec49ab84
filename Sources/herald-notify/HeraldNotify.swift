import ArgumentParser
import Foundation
import HeraldBus
import HeraldDesktop
import HeraldProtocol

/// `herald-notify`: shows heraldd's notifications for this user on the Linux desktop,
/// through the notification server on the session bus (`org.freedesktop.Notifications`).
@main
struct HeraldNotify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald-notify",
        abstract: "Show Herald's notifications on the desktop, through org.freedesktop.Notifications.",
        discussion: """
            Subscribes to heraldd as the presenter of this user's notifications and shows each \
            delivered notification and each summary on the session bus's notification server \
            (GNOME Shell, KDE Plasma, dunst, mako …), named and iconed by the app's .desktop \
            file, one stack per thread. What heraldd delivered quietly is not shown (see \
            --quiet); what it delivered while herald-notify did not run is shown once at its \
            start. Reconnects when heraldd restarts, and waits while no notification server \
            is there. Runs as the user service herald-notify.service.
            """,
        version: HeraldVersion.string
    )

    @Option(help: ArgumentHelp("heraldd's socket (default: $HERALD_SOCKET, else the first that exists of heraldd's own defaults).", valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "What to do with notifications Herald delivered quietly (silenced by a Focus, passive): skip them, so nothing pops up (they stay in Herald's list: heraldctl notifications --app APP), or show them at low urgency without sound.",
            valueName: "skip|show"
        )
    )
    var quiet: QuietHandling = .skip

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let bus: SessionBus
        let presenter: DesktopPresenter
        let images = ImageFiles(environment: environment)
        do {
            bus = try SessionBus()
            presenter = try DesktopPresenter(
                server: DesktopNotifications(bus: bus), images: images, entries: DesktopEntries(environment: environment), quiet: quiet
            )
        } catch {
            Log.info("cannot use the session bus: \(error) (is DBUS_SESSION_BUS_ADDRESS or XDG_RUNTIME_DIR set?)")
            throw ExitCode(1)
        }
        let flag = socket
        let loop = PresenterLoop(
            socket: { Self.socketPath(flag: flag, environment: environment) },
            uid: getuid(),
            bus: bus,
            presenter: presenter,
            presentedUntil: PresentedUntil(environment: environment)
        )
        let status = loop.run()
        images.removeAll()
        if status != 0 { throw ExitCode(status) }
    }

    /// `--socket`, else `$HERALD_SOCKET`, else the first that exists of heraldd's defaults,
    /// asked again at each attempt (a socket-activated heraldd's socket may appear later).
    static func socketPath(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let variable = environment["HERALD_SOCKET"], !variable.isEmpty { return variable }
        let candidates = DefaultSocketPaths.candidates(environment: environment)
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last!
    }
}

extension QuietHandling: ExpressibleByArgument {}
