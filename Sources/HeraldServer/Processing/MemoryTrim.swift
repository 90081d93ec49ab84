import FoundationEssentials
import HeraldCore
import Synchronization

/// Gives memory freed after a large request or response back to the system.
///
/// glibc's allocator keeps freed memory in its arenas; after a request of a megabyte and
/// its parse tree, resident memory would stay at its high-water mark. A connection marks
/// large work as done, and the daemon's alarm trims a second later, so that a stream of
/// large requests costs one `malloc_trim` a second, not one each.
final class MemoryTrim: Sendable {
    private let pending = Atomic<Bool>(false)
    private let alarm: DueAlarm
    private let clock: any HeraldClock

    init(alarm: DueAlarm, clock: any HeraldClock) {
        self.alarm = alarm
        self.clock = clock
    }

    /// Marks that a large request or response was handled; the first since the last trim
    /// sets the alarm for a second later.
    func largeWorkDone() {
        guard !pending.exchange(true, ordering: .relaxed) else { return }
        alarm.due(at: clock.now().addingTimeInterval(1))
    }

    /// Trims the allocator's arenas if large work was done since the last call.
    func trimIfDue() {
        guard pending.exchange(false, ordering: .relaxed) else { return }
        _ = heraldMallocTrim(0)
    }
}

/// glibc's `malloc_trim(3)`, which the Glibc module does not export.
@_silgen_name("malloc_trim")
private func heraldMallocTrim(_ pad: Int) -> Int32
