import FoundationEssentials

/// Where a page of `list-notifications` stopped: the place of the last notification it
/// listed, in the list's order (received, then the order it came in). The next page
/// lists those after it, so notifications that come meanwhile never shift a page.
///
/// On the wire it is an opaque string that holds while heraldd runs: a restart numbers
/// the order afresh, so a cursor from before one may repeat or skip a notification.
package struct NotificationCursor: Sendable, Hashable, Comparable {
    var receivedAt: Date
    var stamp: UInt64

    /// `stamp.received-bits`: the stamp, then the receive time's bits, in hexadecimal.
    package var text: String {
        String(stamp, radix: 16) + "." + String(receivedAt.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
    }

    init(receivedAt: Date, stamp: UInt64) {
        self.receivedAt = receivedAt
        self.stamp = stamp
    }

    /// The cursor `text` wrote; nil for any other string.
    init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 16 }),
            let stamp = UInt64(parts[0], radix: 16), let bits = UInt64(parts[1], radix: 16)
        else { return nil }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { return nil }
        self.init(receivedAt: Date(timeIntervalSinceReferenceDate: seconds), stamp: stamp)
    }

    /// The cursor of a request's `cursor` member, which `method` answered earlier.
    static func read(_ text: String, answeredBy method: String) throws(RuleError) -> NotificationCursor {
        guard let cursor = NotificationCursor(text: text) else {
            throw .invalidParams("cursor is the nextCursor of an earlier \(method) answer, unchanged; got \"\(text)\".", at: ["cursor"])
        }
        return cursor
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.receivedAt, lhs.stamp) < (rhs.receivedAt, rhs.stamp)
    }
}
