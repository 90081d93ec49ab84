import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Snapshot and exit 0 once no connection has been open this long and no Focus change, summary or snooze end is due within it: seconds, or a number with s, m, h or d (10m); 0 never.",
            discussion: "Under socket activation the next connection starts heraldd again; it does what fell due meanwhile before it answers.",
            valueName: "duration"))
    var exitIdleTime: String = "0"

    /// The flag's earlier name, still read so that an administrator's unit or drop-in that
    /// names it keeps working; `--exit-idle-time` wins when both are given.
    @Option(name: .customLong("exit-idle-after"), parsing: .unconditional, help: .hidden)
    var exitIdleAfter: String?

    /// What decides: `--exit-idle-time` unless only the earlier name was given.
    private var exitIdleText: String { exitIdleTime == "0" ? exitIdleAfter ?? exitIdleTime : exitIdleTime }

    /// `--exit-idle-time` in seconds; 0 never.
    var exitIdleSeconds: Double { DurationText.seconds(exitIdleText) ?? 0 }

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
        guard let idle = DurationText.seconds(exitIdleText) else {
            throw ValidationError("--exit-idle-time must be a duration such as 600, 10m or 1h (0: never), not \(exitIdleText).")
        }
        try OptionRange.check("exit-idle-time", idle, 0...31_536_000, "seconds (0: never)")
        if let adminGroup, AdministratorPolicy.groupID(named: adminGroup) == nil {
            throw ValidationError("--admin-group \(adminGroup): no such group.")
        }
    }
}

struct LimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("The largest request, in bytes; past it Herald answers and closes the connection.", valueName: "bytes"))
    var maxRequestBytes: Int = 1 << 20

    @Option(parsing: .unconditional, help: ArgumentHelp("The deepest nesting of arrays and objects in a request.", valueName: "levels"))
    var maxDepth: Int = 64

    @Option(parsing: .unconditional, help: ArgumentHelp("The most requests in one batch.", valueName: "requests"))
    var maxBatch: Int = 1000

    @Option(parsing: .unconditional, help: ArgumentHelp("The most connections open at once.", valueName: "connections"))
    var maxConnections: Int = 1024

    @Option(parsing: .unconditional, help: ArgumentHelp("Close a connection that sits this long on part of a request.", valueName: "seconds"))
    var readTimeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("The most connections one uid may hold; administrators are not counted.", valueName: "connections"))
    var maxConnectionsPerUid: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("Of --max-connections, the slots kept for administrators.", valueName: "connections"))
    var adminConnections: Int = 8

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection that has had nothing to do this long (not one holding a focus-changed subscription); 0 never.",
            valueName: "seconds"))
    var idleTimeout: Double = 600

    @Option(parsing: .unconditional, help: ArgumentHelp("The largest response, a batch's included, in bytes; listings answer in pages within it.", valueName: "bytes"))
    var maxResponseBytes: Int = 1 << 20

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Unread output a connection may leave waiting before Herald stops answering it (and closes a subscriber).",
            valueName: "bytes"))
    var maxUnreadBytes: Int = 256 << 10

    @Option(parsing: .unconditional, help: ArgumentHelp("The listening backlog when heraldd binds its socket itself.", valueName: "connections"))
    var listenBacklog: Int32 = 4096

    @Option(parsing: .unconditional, help: ArgumentHelp("The most bytes of UTF-8 in one string of a request's params (an image's base64 data has its own bound: 256 KiB decoded).", valueName: "bytes"))
    var maxStringBytes: Int = 16_384

    @Option(parsing: .unconditional, help: ArgumentHelp("The most interactions one uid keeps; past it, its own oldest are evicted.", valueName: "count"))
    var maxInteractionsPerUid: Int = 500_000

    @Option(parsing: .unconditional, help: ArgumentHelp("The most apps one uid keeps interactions, or settings, of.", valueName: "count"))
    var maxAppsPerUid: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("The most silenced-conversation marks one uid keeps while a Focus is on.", valueName: "count"))
    var maxSilencedPerUid: Int = 10_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most notifications one uid's list keeps; past it, its oldest delivered go first.", valueName: "count"))
    var maxNotifications: Int = 10_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most bytes of notifications one uid's list keeps, each weighed about as list-notifications writes it and by its words' entries in the search index; past it, its oldest delivered go first.",
            valueName: "bytes"))
    var maxNotificationBytes: Int = 32 << 20

    @Option(
        parsing: .unconditional,
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

    /// Each limit within the range it may take: 0 strings of bytes, no batch, no time to
    /// read a request would make every request fail, and a value clamped in silence
    /// hides the mistake.
    func validate() throws {
        try OptionRange.check("max-request-bytes", maxRequestBytes, 64...(1 << 30), "bytes")
        try OptionRange.check("max-depth", maxDepth, 2...1024, "levels")
        try OptionRange.check("max-batch", maxBatch, 1...100_000, "requests")
        try OptionRange.check("max-connections", maxConnections, 1...1_000_000, "connections")
        try OptionRange.check("read-timeout", readTimeout, 0.001...86_400, "seconds")
        try OptionRange.check("max-connections-per-uid", maxConnectionsPerUid, 1...1_000_000, "connections")
        try OptionRange.check("admin-connections", adminConnections, 0...1_000_000, "connections")
        try OptionRange.check("idle-timeout", idleTimeout, 0...31_536_000, "seconds (0: never)")
        try OptionRange.check("max-response-bytes", maxResponseBytes, 1024...(1 << 30), "bytes")
        try OptionRange.check("max-unread-bytes", maxUnreadBytes, 1024...(1 << 30), "bytes")
        try OptionRange.check("listen-backlog", listenBacklog, 1...65_535, "connections")
        try OptionRange.check("max-string-bytes", maxStringBytes, 16...(1 << 30), "bytes")
        try OptionRange.check("max-interactions-per-uid", maxInteractionsPerUid, 1...100_000_000, "interactions")
        try OptionRange.check("max-apps-per-uid", maxAppsPerUid, 1...1_000_000, "apps")
        try OptionRange.check("max-silenced-per-uid", maxSilencedPerUid, 0...10_000_000, "marks")
        try OptionRange.check("max-notifications", maxNotifications, 1...10_000_000, "notifications")
        try OptionRange.check("max-notification-bytes", maxNotificationBytes, 65_536...(1 << 40), "bytes")
        try OptionRange.check("max-conversations-per-uid", maxConversationsPerUid, 0...1_000_000, "conversations")
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
        parsing: .unconditional,
        help: ArgumentHelp("A second incoming call from the same caller within this window breaks through Focus.", valueName: "seconds"))
    var repeatedCallWindow: Double = 180

    @Option(
        parsing: .unconditional,
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
        try OptionRange.check("repeated-call-window", repeatedCallWindow, 0...86_400, "seconds")
        try OptionRange.check("undo-window", undoWindow, 0...86_400, "seconds")
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

/// A flag's value checked against the range it may take, with a message that names both.
enum OptionRange {
    static func check<Value: Comparable>(_ flag: String, _ value: Value, _ range: ClosedRange<Value>, _ unit: String) throws {
        guard !range.contains(value) else { return }
        throw ValidationError("--\(flag) must be \(text(range.lowerBound)) to \(text(range.upperBound)) \(unit), not \(text(value)).")
    }

    /// A whole number without ".0".
    private static func text(_ value: some Comparable) -> String {
        if let double = value as? Double, double == double.rounded(), abs(double) < 1e15 { return String(Int(double)) }
        return "\(value)"
    }
}
