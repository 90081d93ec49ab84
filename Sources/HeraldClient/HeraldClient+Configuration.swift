import FoundationEssentials
import HeraldProtocol

extension HeraldClient {
    /// Where heraldd is, and how to reconnect to it.
    public struct Configuration: Sendable {
        /// heraldd's socket. By default `$HERALD_SOCKET`, else the first that exists of
        /// heraldd's own defaults (`$RUNTIME_DIRECTORY/herald.sock`,
        /// `$XDG_RUNTIME_DIR/herald/herald.sock`, `/run/herald/herald.sock`).
        public var socketPath: String
        /// Whether a lost connection is made again when the app has subscriptions or listens to events.
        public var reconnects = true
        /// The wait before the first reconnection attempt; it doubles after each.
        public var initialDelay: Duration = .milliseconds(100)
        /// The longest wait between reconnection attempts.
        public var maximumDelay: Duration = .seconds(5)
        /// Reconnection attempts before giving up (calls then fail with ``HeraldError/Kind/unreachable``); nil: no end.
        public var maximumAttempts: Int?
        /// How long connecting waits while heraldd's listen backlog is full (connections it
        /// has not accepted yet) before failing with ``HeraldError/Kind/unreachable`` and EAGAIN.
        public var connectTimeout: Duration = .seconds(5)
        /// Events each ``HeraldClient/events()`` stream keeps unread before dropping the oldest.
        public var eventBuffer = 4096

        public init(socketPath: String? = nil) {
            self.socketPath = socketPath ?? Self.defaultSocketPath(environment: ProcessInfo.processInfo.environment)
        }

        /// `$HERALD_SOCKET`, else the first of heraldd's default sockets that exists.
        public static func defaultSocketPath(environment: [String: String]) -> String {
            if let variable = environment["HERALD_SOCKET"], !variable.isEmpty { return variable }
            let candidates = DefaultSocketPaths.candidates(environment: environment)
            return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last!
        }
    }
}
