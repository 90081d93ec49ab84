import Foundation
import HeraldTesting
import Testing

/// Issue 45, item 14: a routine refusal is not a warning. The person asking for an
/// administrator's method is journaled at notice (5); a person reaching for another uid's
/// data stays a warning (4) — read back from the real journald.
@Suite(
    "Refusals in the journal, end to end",
    .enabled(if: JournalReader.isAvailable && getuid() == 0, "needs a running systemd-journald, and root to act as another uid")
)
struct RefusalJournalEndToEndTests {
    @Test("snapshot refused to a person is priority 5; get-focus of another uid is priority 4")
    func refusalPriorities() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "journal", "--snapshot-interval", "0"])
        let person = ["/usr/bin/setpriv", "--reuid=1000", "--regid=1000", "--clear-groups"]
        let journal = JournalReader(pid: herald.process.pid)

        let snapshot = try Heraldctl.run(["snapshot", "--socket", herald.socketPath], prefix: person)
        #expect(snapshot.status == 1 && snapshot.stderr.contains("Permission denied (1006)"), "\(snapshot)")
        let another = try Heraldctl.run(["focus", "show", "--uid", "0", "--socket", herald.socketPath], prefix: person)
        #expect(another.status == 1 && another.stderr.contains("Permission denied (1006)"), "\(another)")

        let routine = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=snapshot", "HERALD_OUTCOME=error"]).first)
        #expect(routine.field("PRIORITY") == "5", "\(routine)")
        #expect(routine.field("HERALD_ERROR_CODE") == "1006")
        #expect(routine.field("HERALD_PEER_UID") == "1000")
        let reaching = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=get-focus", "HERALD_OUTCOME=error"]).first)
        #expect(reaching.field("PRIORITY") == "4", "\(reaching)")
        #expect(reaching.field("HERALD_ERROR_CODE") == "1006")
        // stats is no refusal at all now: the person's own view, at priority 6.
        let status = try Heraldctl.run(["status", "--socket", herald.socketPath], prefix: person)
        #expect(status.status == 0, "\(status)")
        let stats = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=stats"]).first)
        #expect(stats.field("PRIORITY") == "6" && stats.field("HERALD_OUTCOME") == "ok", "\(stats)")
    }
}
