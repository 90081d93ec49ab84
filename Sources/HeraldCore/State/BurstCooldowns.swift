import FoundationEssentials

/// Each uid's burst cooldown, as Android 15's notification cooldown: once a conversation
/// (or an app, for notifications without one) has alerted, its next notifications within
/// the uid's window arrive without sound.
///
/// The window runs from the source's latest arrival, not from its first alert: each
/// arrival within the window, cooled down or not, extends it, so a steady stream stays
/// quiet until the source pauses for a whole window (Android's rule; its graded lowering
/// of the volume is one step here: none). Only ordinary alerts count: a notification
/// already quiet or held for the summary, and an exempt one (critical, timeSensitive, a
/// repeated call), is neither cooled down nor starts or extends a burst.
///
/// The windows people set are kept in snapshots; the bursts are not (after a restart a
/// source alerts once more, at most). Each uid remembers at most ``maxSourcesPerUID``
/// sources: reaching it, those whose window has ended go, then the least recent until a
/// quarter is free (their next notification alerts as a first one would).
struct BurstCooldowns: Sendable {
    /// Where a burst comes from: a conversation of an app, or the app itself for a
    /// notification without a conversation.
    struct Source: Hashable, Sendable {
        var app: String
        var conversationIdentifier: String?
    }

    /// A burst under way: its first alert, and its latest arrival, which the window runs from.
    struct Burst: Sendable {
        var startedAt: Date
        var lastArrivalAt: Date
        /// The `cooledDown` sentence of this burst, made at its first cooled-down arrival for
        /// the window then, and shared by the next ones: `update-content` builds none of its own.
        var sentence: (window: Int, text: String)?
    }

    /// The window of a uid that set none.
    static let defaultSeconds = 60
    /// The longest window a person may set: ten minutes.
    static let maxSeconds = 600
    /// The most sources whose latest arrival one uid remembers.
    static let maxSourcesPerUID = 256
    /// How many a trim at ``maxSourcesPerUID`` keeps at most: a quarter goes at once, so
    /// the trim's sort is paid once per 64 new sources, not on each.
    static let keptAtTrim = maxSourcesPerUID * 3 / 4

    /// The windows people set, by uid; a uid not here has ``defaultSeconds``.
    private(set) var windows: [UInt32: Int] = [:]
    private var bursts: [UInt32: [Source: Burst]] = [:]

    init() {}

    /// The uid's window in seconds; 0 when its cooldown is off.
    func seconds(uid: UInt32) -> Int {
        windows[uid] ?? Self.defaultSeconds
    }

    /// Sets the uid's window (0 to ``maxSeconds``, checked by the caller); 0 also forgets
    /// its bursts.
    mutating func setSeconds(_ seconds: Int, uid: UInt32) {
        windows[uid] = seconds == Self.defaultSeconds ? nil : seconds
        if seconds == 0 { bursts[uid] = nil }
    }

    /// An ordinary alert from `source` arrives at `now` (not exempt, checked by the
    /// caller): the sentence of the burst it continues (to be cooled down), which
    /// `describe` makes from the burst's start and the window when the burst has none yet;
    /// or nil when it alerts, starting a burst — always nil while the uid's cooldown is off.
    mutating func arrive(uid: UInt32, source: Source, now: Date, describe: (_ startedAt: Date, _ window: Int) -> String) -> String? {
        let window = seconds(uid: uid)
        guard window > 0 else { return nil }
        return Self.arrive(at: now, from: source, window: window, in: &bursts[uid, default: [:]], describe: describe)
    }

    /// The step of ``arrive(uid:source:now:describe:)`` on one uid's sources, in place.
    private static func arrive(
        at now: Date, from source: Source, window: Int, in sources: inout [Source: Burst], describe: (Date, Int) -> String
    ) -> String? {
        if let index = sources.index(forKey: source) {
            var burst = sources.values[index]
            // A clock that went back counts as within the window.
            guard now.timeIntervalSince(burst.lastArrivalAt) < TimeInterval(window) else {
                sources.values[index] = Burst(startedAt: now, lastArrivalAt: now)
                return nil
            }
            burst.lastArrivalAt = now
            if burst.sentence?.window != window {
                burst.sentence = (window, describe(burst.startedAt, window))
            }
            sources.values[index] = burst
            return burst.sentence?.text
        }
        if sources.count >= maxSourcesPerUID {
            sources = sources.filter { now.timeIntervalSince($0.value.lastArrivalAt) < TimeInterval(window) }
            if sources.count > keptAtTrim {
                let recent = sources.sorted { $0.value.lastArrivalAt > $1.value.lastArrivalAt }.prefix(keptAtTrim)
                sources = Dictionary(uniqueKeysWithValues: recent.map { ($0.key, $0.value) })
            }
        }
        sources[source] = Burst(startedAt: now, lastArrivalAt: now)
        return nil
    }

    /// The latest arrival of `source`'s burst, if it has one: its next alert within the
    /// window of it is cooled down. Nothing changes (a standing grant reads it).
    func lastArrival(uid: UInt32, source: Source) -> Date? {
        bursts[uid]?[source]?.lastArrivalAt
    }

    /// How many sources `uid` remembers.
    func sourceCount(uid: UInt32) -> Int {
        bursts[uid]?.count ?? 0
    }

    /// Every uid's window that differs from the default, as snapshots keep them.
    var storedWindows: [(uid: UInt32, seconds: Int)] {
        windows.keys.sorted().map { ($0, windows[$0]!) }
    }
}
