import Foundation
import HeraldCore
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// When heraldd counts as at rest: a whole ``MemoryTrim/restAfter`` with no request read,
/// found by the alarm's rounds on a ``ManualClock``.
@Suite("MemoryTrim: heraldd comes to rest after a quiet spell, and only then")
struct MemoryTrimTests {
    /// A trim on `clock` and the rests it came to.
    static func makeTrim(_ clock: ManualClock) -> (MemoryTrim, NIOLockedValueBox<Int>) {
        let rests = NIOLockedValueBox(0)
        let trim = MemoryTrim(alarm: DueAlarm(), clock: clock) { _ in rests.withLockedValue { $0 += 1 } }
        return (trim, rests)
    }

    @Test("A start with no request rests once, at the first check, and plans nothing after")
    func quietStartRests() {
        let clock = ManualClock()
        let (trim, rests) = Self.makeTrim(clock)
        #expect(trim.nextDue == clock.now().addingTimeInterval(MemoryTrim.restAfter))
        clock.advance(by: MemoryTrim.restAfter - 1)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 0, "not before the check is due")
        clock.advance(by: 1)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 1)
        #expect(trim.nextDue == nil, "at rest, nothing is planned: the alarm sleeps")
        clock.advance(by: 3600)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 1, "one rest, not one a round")
    }

    @Test("Requests read put the rest off by a whole spell; the first read after a rest plans the next")
    func readsPutRestOff() {
        let clock = ManualClock()
        let (trim, rests) = Self.makeTrim(clock)
        clock.advance(by: 10)
        trim.requestsRead()
        clock.advance(by: MemoryTrim.restAfter - 10)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 0, "a request was read since the check was planned")
        #expect(trim.nextDue == clock.now().addingTimeInterval(MemoryTrim.restAfter))
        clock.advance(by: MemoryTrim.restAfter)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 1)
        #expect(trim.nextDue == nil)

        clock.advance(by: 100)
        trim.requestsRead()
        trim.requestsRead()
        #expect(trim.nextDue == clock.now().addingTimeInterval(MemoryTrim.restAfter), "the first read after the rest plans a check")
        clock.advance(by: MemoryTrim.restAfter)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 1, "read since that check was planned")
        clock.advance(by: MemoryTrim.restAfter)
        trim.trimIfDue(now: clock.now())
        #expect(rests.withLockedValue { $0 } == 2)
    }

    @Test("Only read-only mappings of files with no page of their own are let go")
    func mappingsReadFromSmaps() {
        let smaps = """
            55d0c0000000-55d0c1000000 r-xp 00000000 fe:01 1234   /usr/lib/herald/heraldd
            Size:              16384 kB
            Rss:               14612 kB
            Anonymous:             0 kB
            VmFlags: rd ex mr mw me dw
            55d0c1000000-55d0c1100000 r--p 01000000 fe:01 1234   /usr/lib/herald/heraldd
            Rss:                 592 kB
            Anonymous:           128 kB
            55d0c1100000-55d0c1200000 rw-p 01100000 fe:01 1234   /usr/lib/herald/heraldd
            Rss:                1700 kB
            Anonymous:          1700 kB
            7f0000000000-7f0000100000 r-xp 00000000 fe:01 99     /usr/lib/x86_64-linux-gnu/libc.so.6
            Rss:                1072 kB
            Anonymous:             0 kB
            7f0000200000-7f0000300000 r-xp 00000000 00:00 0      [vdso]
            Rss:                   8 kB
            Anonymous:             0 kB
            7f0000400000-7f0000500000 rw-p 00000000 00:00 0
            Rss:                1992 kB
            Anonymous:          1992 kB
            """
        let mappings = CodePages.readOnlyFileMappings(in: smaps)
        #expect(
            mappings == [
                CodePages.Mapping(start: 0x55d0_c000_0000, end: 0x55d0_c100_0000, residentKB: 14612, anonymousKB: 0),
                CodePages.Mapping(start: 0x55d0_c100_0000, end: 0x55d0_c110_0000, residentKB: 592, anonymousKB: 128),
                CodePages.Mapping(start: 0x7f00_0000_0000, end: 0x7f00_0010_0000, residentKB: 1072, anonymousKB: 0),
            ], "no writable, anonymous or kernel mapping: \(mappings)")
    }
}
