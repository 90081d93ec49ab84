/// Why a snapshot file cannot be loaded or written.
///
/// An opaque struct with a code rather than an enum, so that new reasons can be added.
public struct SnapshotFileError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Shorter than its header or its payload length says.
        public static let truncated = Code("truncated")
        /// Does not start with the magic bytes.
        public static let notASnapshot = Code("notASnapshot")
        /// The header's or the payload's checksum does not hold.
        public static let checksumMismatch = Code("checksumMismatch")
        /// Written by a newer heraldd, in a format this one does not know.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The checksums hold but the payload does not decode.
        public static let undecodable = Code("undecodable")
        /// Reading, writing, syncing or renaming failed.
        public static let io = Code("io")

        public var description: String { name }
    }

    public var code: Code
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether the file is damaged (as opposed to newer, or unreadable for the moment).
    public var isDamage: Bool {
        code == .truncated || code == .notASnapshot || code == .checksumMismatch || code == .undecodable
    }

    public var description: String { "\(code): \(reason)" }
}
