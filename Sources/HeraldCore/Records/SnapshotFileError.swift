/// Why a snapshot file cannot be loaded or written.
///
/// An opaque struct with a code rather than an enum, so that new reasons can be added.
package struct SnapshotFileError: Error, Sendable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Shorter than its header or its payload length says.
        package static let truncated = Code("truncated")
        /// Does not start with the magic bytes.
        package static let notASnapshot = Code("notASnapshot")
        /// The header's or the payload's checksum does not hold.
        package static let checksumMismatch = Code("checksumMismatch")
        /// Written by a newer heraldd, in a format this one does not know.
        package static let unsupportedVersion = Code("unsupportedVersion")
        /// The checksums hold but the payload does not decode.
        package static let undecodable = Code("undecodable")
        /// Reading, writing, syncing or renaming failed.
        package static let io = Code("io")

        package var description: String { name }
    }

    package var code: Code
    package var reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether the file is damaged (as opposed to newer, or unreadable for the moment).
    package var isDamage: Bool {
        code == .truncated || code == .notASnapshot || code == .checksumMismatch || code == .undecodable
    }

    package var description: String { "\(code): \(reason)" }
}
