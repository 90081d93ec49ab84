import FoundationEssentials
import HeraldCore
import Synchronization

/// Gives memory back to the system: what was freed after large work, and, when heraldd
/// comes to rest, the pages of code its last work mapped.
///
/// glibc's allocator keeps freed memory in its arenas; after a request of a megabyte and
/// its parse tree, resident memory would stay at its high-water mark. A connection marks
/// large work as done, and the daemon's alarm trims at its next round, so that a stream of
/// large requests costs one `malloc_trim` a round, not one each.
///
/// heraldd is at rest when a whole ``restAfter`` passes with no request read: then it trims
/// and unmaps its code (``CodePages``), which start-up and requests leave mapped far beyond
/// what they run. Finding it out costs a round of the alarm every ``restAfter`` while
/// requests come, none at rest: the first read after a rest plans the next check.
final class MemoryTrim: Sendable {
    /// How long heraldd goes without reading a request before it is at rest.
    static let restAfter: TimeInterval = 30

    private let pending = Atomic<Bool>(false)
    /// Whether a connection read since the rest check now planned was planned.
    private let readSinceCheck = Atomic<Bool>(false)
    /// When the rest check is due; nil at rest, when none is planned.
    private let restCheck: Mutex<Date?>
    private let alarm: DueAlarm
    private let clock: any HeraldClock
    /// Called at each rest with the kilobytes of code unmapped (nil: the mappings could not be read).
    private let rested: @Sendable (Int?) -> Void

    /// Starts awake: the first rest check is ``restAfter`` after now.
    init(alarm: DueAlarm, clock: any HeraldClock, rested: @escaping @Sendable (Int?) -> Void = { _ in }) {
        self.alarm = alarm
        self.clock = clock
        self.rested = rested
        self.restCheck = Mutex(clock.now().addingTimeInterval(Self.restAfter))
    }

    /// When the alarm is next needed here: the rest check, if one is planned.
    var nextDue: Date? { restCheck.withLock { $0 } }

    /// Marks that a large request or response was handled; the first since the last trim
    /// rings the alarm.
    func largeWorkDone() {
        guard !pending.exchange(true, ordering: .relaxed) else { return }
        alarm.ring()
    }

    /// Marks that a connection read: one atomic load, but for the first read after a rest
    /// check, which plans the next if none is.
    func requestsRead() {
        guard !readSinceCheck.load(ordering: .relaxed) else { return }
        readSinceCheck.store(true, ordering: .relaxed)
        let planned = restCheck.withLock { check -> Date? in
            guard check == nil else { return nil }
            check = clock.now().addingTimeInterval(Self.restAfter)
            return check
        }
        alarm.due(at: planned)
    }

    /// The alarm's round at `now`: trims the allocator's arenas if large work was done since
    /// the last round, and comes to rest if the rest check is due with no request read since
    /// it was planned.
    func trimIfDue(now: Date) {
        let rests = restCheck.withLock { check -> Bool in
            guard let due = check, now >= due else { return false }
            if readSinceCheck.exchange(false, ordering: .relaxed) {
                check = now.addingTimeInterval(Self.restAfter)
                return false
            }
            check = nil
            return true
        }
        guard pending.exchange(false, ordering: .relaxed) || rests else { return }
        _ = heraldMallocTrim(0)
        if rests { rested(CodePages.release()) }
    }
}

/// glibc's `malloc_trim(3)`, which the Glibc module does not export.
@_silgen_name("malloc_trim")
private func heraldMallocTrim(_ pad: Int) -> Int32
