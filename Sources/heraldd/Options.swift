import ArgumentParser
import Foundation
import HeraldCore
import HeraldServer
import HeraldSystemd

struct ListeningOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The socket to bind when not socket-activated.",
            discussion: "Default: $RUNTIME_DIRECTORY/herald.sock, else $XDG_RUNTIME_DIR/herald/herald.sock, else /run/herald/herald.sock."
        )
    )
    var socket: String?

    @Option(help: "The socket file's mode, in octal.")
    var socketMode: String = "0660"

    @Option(help: ArgumentHelp("Exit after this many seconds with no client connected; 0 never.", valueName: "seconds"))
    var exitIdleAfter: Double = 0

    @Option(help: ArgumentHelp("Members of this group are administrators, as are uid 0 and the daemon's uid.", valueName: "group"))
    var adminGroup: String?

    @Flag(
        help: ArgumentHelp(
            "Refuse an app's methods (donate, update-content, …) to connections without a verified app identity.",
            discussion: "A Flatpak, a Snap or an app launched into an app-….scope unit is verified; the person's methods stay open to them."
        )
    )
    var requireAppIdentity = false

    var parsedSocketMode: mode_t? {
        mode_t(socketMode, radix: 8).flatMap { $0 <= 0o777 ? $0 : nil }
    }

    func validate() throws {
        guard parsedSocketMode != nil else {
            throw ValidationError("--socket-mode must be an octal mode such as 0660, not \(socketMode).")
        }
        guard exitIdleAfter >= 0 else { throw ValidationError("--exit-idle-after must be 0 or more seconds.") }
        if let adminGroup, AdministratorPolicy.groupID(named: adminGroup) == nil {
            throw ValidationError("--admin-group \(adminGroup): no such group.")
        }
    }
}

struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The largest request, in bytes; past it Herald answers and closes the connection.", valueName: "bytes"))
    var maxRequestBytes: Int = 1 << 20

    @Option(help: ArgumentHelp("The deepest nesting of arrays and objects in a request.", valueName: "levels"))
    var maxDepth: Int = 64

    @Option(help: ArgumentHelp("The most requests in one batch.", valueName: "requests"))
    var maxBatch: Int = 1000

    @Option(help: ArgumentHelp("The most connections open at once.", valueName: "connections"))
    var maxConnections: Int = 1024

    @Option(help: ArgumentHelp("Close a connection that sits this long on part of a request.", valueName: "seconds"))
    var readTimeout: Double = 30

    @Option(help: ArgumentHelp("The most connections one uid may hold; administrators are not counted.", valueName: "connections"))
    var maxConnectionsPerUid: Int = 256

    @Option(help: ArgumentHelp("Of --max-connections, the slots kept for administrators.", valueName: "connections"))
    var adminConnections: Int = 8

    @Option(
        help: ArgumentHelp(
            "Close a connection that has had nothing to do this long (not one holding a focus-changed subscription); 0 never.",
            valueName: "seconds"))
    var idleTimeout: Double = 600

    @Option(help: ArgumentHelp("The largest response, a batch's included, in bytes; listings answer in pages within it.", valueName: "bytes"))
    var maxResponseBytes: Int = 1 << 20

    @Option(
        help: ArgumentHelp(
            "Unread output a connection may leave waiting before Herald stops answering it (and closes a subscriber).",
            valueName: "bytes"))
    var maxUnreadBytes: Int = 256 << 10

    @Option(help: ArgumentHelp("The listening backlog when heraldd binds its socket itself.", valueName: "connections"))
    var listenBacklog: Int32 = 4096

    @Option(help: ArgumentHelp("The most bytes of UTF-8 in one string of a request's params (an image's base64 data has its own bound: 256 KiB decoded).", valueName: "bytes"))
    var maxStringBytes: Int = 16_384

    @Option(help: ArgumentHelp("The most interactions one uid keeps; past it, its own oldest are evicted.", valueName: "count"))
    var maxInteractionsPerUid: Int = 500_000

    @Option(help: ArgumentHelp("The most apps one uid keeps interactions, or settings, of.", valueName: "count"))
    var maxAppsPerUid: Int = 256

    @Option(help: ArgumentHelp("The most silenced-conversation marks one uid keeps while a Focus is on.", valueName: "count"))
    var maxSilencedPerUid: Int = 10_000

    @Option(
        help: ArgumentHelp(
            "The most notifications one uid's list keeps; past it, its oldest delivered go first.", valueName: "count"))
    var maxNotifications: Int = 10_000

    @Option(
        help: ArgumentHelp(
            "The most bytes of notifications one uid's list keeps, each weighed about as list-notifications writes it and by its words' entries in the search index; past it, its oldest delivered go first.",
            valueName: "bytes"))
    var maxNotificationBytes: Int = 32 << 20

    @Option(
        help: ArgumentHelp(
            "The most conversations one uid mutes or marks priority at once; past it, set-conversation refuses one more.", valueName: "count"))
    var maxConversationsPerUid: Int = 1_000

    /// The per-uid limits, into the rules' configuration.
    func applyFairShares(to core: inout CoreConfiguration) {
        core.maxNotificationsPerUID = max(1, maxNotifications)
        core.maxNotificationBytesPerUID = max(1, maxNotificationBytes)
        core.maxInteractionsPerUID = max(1, maxInteractionsPerUid)
        core.maxAppsPerUID = max(1, maxAppsPerUid)
        core.maxSilencedMarksPerUID = max(0, maxSilencedPerUid)
        core.maxConversationsPerUID = max(0, maxConversationsPerUid)
    }

    var requestLimits: RequestLimits {
        var limits = RequestLimits()
        limits.maxRequestBytes = max(1, maxRequestBytes)
        limits.maxDepth = max(1, maxDepth)
        limits.maxBatchLength = max(1, maxBatch)
        limits.maxConnections = max(1, maxConnections)
        limits.readTimeout = max(0.001, readTimeout)
        limits.maxConnectionsPerUID = max(1, maxConnectionsPerUid)
        limits.adminConnections = min(max(0, adminConnections), limits.maxConnections - 1)
        limits.idleTimeout = max(0, idleTimeout)
        limits.maxResponseBytes = max(1024, maxResponseBytes)
        limits.maxUnreadBytes = max(1024, maxUnreadBytes)
        return limits
    }
}

struct RuleOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What request-focus's requestAuthorization does while notDetermined: prompt (the person decides, asked by their presenters), allow or deny."))
    var focusAuthorization: String = "prompt"

    @Option(
        help: ArgumentHelp("A second incoming call from the same caller within this window breaks through Focus.", valueName: "seconds"))
    var repeatedCallWindow: Double = 180

    @Option(
        help: ArgumentHelp(
            "How long notifications the person removed can be restored (restore-notifications); 0 keeps none, at most 86400.",
            valueName: "seconds"))
    var undoWindow: Double = 600

    var policy: FocusAuthorizationPolicy? {
        FocusAuthorizationPolicy(rawValue: focusAuthorization)
    }

    func validate() throws {
        guard policy != nil else {
            throw ValidationError("--focus-authorization must be prompt, allow or deny, not \(focusAuthorization).")
        }
        guard repeatedCallWindow >= 0 else { throw ValidationError("--repeated-call-window must be 0 or more seconds.") }
        guard undoWindow >= 0, undoWindow <= 86_400 else { throw ValidationError("--undo-window must be 0 to 86400 seconds.") }
    }
}

struct LoggingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where results and diagnostics go: auto (the journal when its socket exists, else the console), journal, console or none."))
    var logTarget: String = "auto"

    var target: LogTarget? { LogTarget.resolve(logTarget) }

    func validate() throws {
        guard target != nil else {
            throw ValidationError("--log-target must be auto, journal, console or none, not \(logTarget).")
        }
    }
}
