import ArgumentParser
import Foundation
import HeraldBus
import class HeraldClient.HeraldClient
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

    @Flag(
        help: ArgumentHelp(
            "Be the desktop's notification gateway: own org.freedesktop.Notifications on the session bus, so that every app's notifications (notify-send, Firefox, Signal …) are decided by Herald, and show them on the renderer on --renderer-bus. Needs --renderer-bus."
        )
    )
    var gateway = false

    @Option(
        help: ArgumentHelp(
            "The private bus the renderer (dunst, mako …) runs on, such as unix:path=$XDG_RUNTIME_DIR/herald/renderer-bus (herald-renderer-bus.service starts one). Without --gateway, bubbles go to the session bus's server.",
            valueName: "address"
        )
    )
    var rendererBus: String?

    @Flag(
        help: ArgumentHelp(
            "With --gateway, also be xdg-desktop-portal's Notification backend (org.freedesktop.impl.portal.desktop.herald, herald.portal), so that Flatpak apps' notifications come through Herald too."
        )
    )
    var portal = false

    @Option(
        help: ArgumentHelp(
            "A command that asks you for a reply's text, where the notification server has no inline reply (dunst, mako): an app's reply action is then offered on its bubbles, and the command's first line of output is the reply (no output, or a non-zero exit, sends nothing). Run with sh -c, $HERALD_REPLY_PROMPT holding what to ask, such as 'rofi -dmenu -p \"$HERALD_REPLY_PROMPT\"', 'wofi --dmenu' or 'zenity --entry --text \"$HERALD_REPLY_PROMPT\"'.",
            valueName: "command"
        )
    )
    var replyCommand: String?

    /// How long a call to the renderer may go unanswered, in seconds: a test's renderer,
    /// stopped, answers late at a test's pace.
    @Option(help: .hidden)
    var rendererTimeout: Int = 10

    func validate() throws {
        if rendererTimeout < 1 { throw ValidationError("--renderer-timeout is a number of seconds, at least 1.") }
        if gateway, rendererBus == nil {
            throw ValidationError("--gateway needs --renderer-bus: the renderer cannot own org.freedesktop.Notifications on the bus where Herald owns it.")
        }
        if portal, !gateway { throw ValidationError("--portal is part of the gateway: give --gateway too.") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let bus: SessionBus
        let renderer: SessionBus
        let presenter: DesktopPresenter
        let images = ImageFiles(environment: environment)
        do {
            bus = try SessionBus()
            renderer = try rendererBus.map { address throws(BusError) in try SessionBus(address: address) } ?? bus
            renderer.callTimeout = .seconds(rendererTimeout)
            presenter = try DesktopPresenter(
                server: DesktopNotifications(bus: renderer), images: images, entries: DesktopEntries(environment: environment), quiet: quiet,
                promptsForReplies: replyCommand != nil
            )
        } catch {
            Log.info("cannot use the session bus: \(error) (is DBUS_SESSION_BUS_ADDRESS or XDG_RUNTIME_DIR set?)")
            throw ExitCode(1)
        }
        let flag = socket
        let loop = PresenterLoop(
            // Asked again at each attempt: a socket-activated heraldd's socket may appear later.
            socket: {
                flag.flatMap { $0.isEmpty ? nil : $0 } ?? HeraldClient.Configuration.defaultSocketPath(environment: environment)
            },
            uid: getuid(),
            buses: renderer === bus ? [bus] : [renderer, bus],
            presenter: presenter,
            presentedUntil: PresentedUntil(environment: environment)
        )
        loop.replyPrompt = replyCommand.map(ReplyPrompt.init(command:))
        var portalBackend: PortalBackend?
        if gateway {
            let served = NotificationGateway(bus: bus, renderer: DesktopNotifications(bus: renderer), presenter: presenter)
            do {
                // A name the bus gives later that cannot be served ends herald-notify with 1.
                served.queuedName.failed = { [unowned loop] _ in loop.stop(status: 1) }
                _ = try served.start()
                presenter.adjustBubble = { [unowned served] bubble in served.bubble(bubble) }
                loop.gateway = served
                if portal {
                    let backend = PortalBackend(bus: bus, gateway: served)
                    backend.queuedName.failed = served.queuedName.failed
                    try backend.start()
                    portalBackend = backend
                }
            } catch {
                Log.info("cannot serve as the gateway: \(error)")
                throw ExitCode(1)
            }
        }
        let status = withExtendedLifetime(portalBackend) { loop.run() }
        images.removeAll()
        if status != 0 { throw ExitCode(status) }
    }
}

extension QuietHandling: ExpressibleByArgument {}
