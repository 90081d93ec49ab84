import NIOCore

/// One presenter's events on their way out: paced to what it reads, bounded in bytes, and
/// what a burst brings past the bound coalesced into one `events-skipped` (issue 49,
/// finding 8).
///
/// A burst — snoozes ending at the same instant, an undo of hundreds, a summary — makes
/// its events faster than any presenter reads them. Events are written while fewer than
/// ``window`` bytes are on their way to the socket; the next wait here, up to ``bound``
/// bytes; past that they are counted, not kept, and once the waiting ones are out the
/// presenter is told how many it missed, to read the list afresh (as inotify's
/// `IN_Q_OVERFLOW`). So a presenter that reads is never closed for a burst.
///
/// A presenter that stops reading is told apart from one that reads slower than a flood:
/// it fell behind, and when another burst's event comes not one of its writes has reached
/// the socket since, for at least ``stallLimit``. Then it is closed. (Counting bursts alone
/// is not enough: a presenter that also sends requests — herald-notify's gateway passing
/// on an app's flood — makes a burst with each, faster than any write completes.)
struct PresenterOutbox {
    /// Bytes written to the channel and not yet out to the socket, past which events wait.
    let window: Int
    /// Bytes of events that may wait; past them, events are skipped and counted.
    let bound: Int
    /// How long a presenter that is behind may go without one write reaching the socket.
    let stallLimit: Duration
    static let defaultStallLimit: Duration = .seconds(2)

    private var waiting: [ByteBuffer] = []
    private var head = 0
    private(set) var waitingBytes = 0
    private(set) var inFlight = 0
    /// Events skipped since the presenter fell behind, not yet told.
    private(set) var skipped = 0
    /// Of them, the alerts (a notification or summary delivered as an alert): what the
    /// person would have seen, told apart from silenced and quiet deliveries and removals.
    private(set) var skippedAlerts = 0
    /// Writes that reached the socket: what a presenter that reads makes grow.
    private(set) var written = 0
    /// `written` when the presenter was last seen behind, that burst, and when; nil while
    /// it keeps up.
    private var behind: (written: Int, burst: UInt64, since: ContinuousClock.Instant)?

    init(window: Int, bound: Int, stallLimit: Duration = Self.defaultStallLimit) {
        self.window = max(1, window)
        self.bound = max(1, bound)
        self.stallLimit = stallLimit
    }

    /// Whether events are being skipped.
    var isBehind: Bool { behind != nil }

    /// How many events wait.
    var waitingCount: Int { waiting.count - head }

    enum OfferAction: Equatable {
        /// Write the line now.
        case write
        /// The line waits its turn.
        case wait
        /// The line is counted, not kept: the presenter is told how many it missed.
        case skip
        /// The presenter stopped reading: close it.
        case close
    }

    /// Bytes this outbox holds: waiting, and on their way to the socket.
    var heldBytes: Int { waitingBytes + inFlight }

    /// An event of `burst` (the events one change makes) for this presenter, which may hold
    /// `room` more bytes (what its uid's presenters together may still hold); `alert` when it
    /// delivers an alert.
    mutating func offer(
        _ line: ByteBuffer, burst: UInt64, room: Int = .max, alert: Bool = false, now: ContinuousClock.Instant = .now
    ) -> OfferAction {
        let action = place(line, burst: burst, room: room, now: now)
        if action == .skip, alert { skippedAlerts += 1 }
        return action
    }

    private mutating func place(_ line: ByteBuffer, burst: UInt64, room: Int, now: ContinuousClock.Instant) -> OfferAction {
        let bytes = line.readableBytes
        // Past its uid's room it falls behind, unless it holds nothing: then no write of its
        // own would ever come back to tell it to catch up, and one line goes.
        if behind == nil, bytes > room, heldBytes > 0 {
            behind = (written, burst, now)
        }
        if let behind {
            if burst != behind.burst {
                if written != behind.written {
                    self.behind = (written, burst, now)
                } else if now - behind.since >= stallLimit {
                    return .close
                }
            }
            skipped += 1
            return .skip
        }
        if waitingCount == 0, inFlight < window {
            inFlight += bytes
            return .write
        }
        if waitingBytes == 0 || waitingBytes + bytes <= bound {
            waiting.append(line)
            waitingBytes += bytes
            return .wait
        }
        behind = (written, burst, now)
        skipped += 1
        return .skip
    }

    /// What may go once a write of `bytes` reached the socket: waiting lines within the
    /// window and, once none waits, how many were skipped (nil when none was) and how many
    /// of them were alerts, whose line the caller writes and hands to ``sent(_:)``.
    mutating func wrote(_ bytes: Int) -> (lines: [ByteBuffer], skipped: Int?, alerts: Int) {
        inFlight -= bytes
        written += 1
        var lines: [ByteBuffer] = []
        while head < waiting.count, inFlight < window {
            let line = waiting[head]
            head += 1
            waitingBytes -= line.readableBytes
            inFlight += line.readableBytes
            lines.append(line)
        }
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: waiting.count <= 64)
            head = 0
        }
        guard waitingCount == 0, skipped > 0 else { return (lines, nil, 0) }
        defer {
            skipped = 0
            skippedAlerts = 0
            behind = nil
        }
        return (lines, skipped, skippedAlerts)
    }

    /// A line written by other means (the skipped count's) is on its way.
    mutating func sent(_ bytes: Int) {
        inFlight += bytes
    }
}
