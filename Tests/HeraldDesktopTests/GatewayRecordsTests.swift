import HeraldBus
import HeraldDesktop
import Testing

/// The gateway's records stay within their bounds: the oldest go first past
/// ``GatewayRecords/maximumRecords``, and a notification replaced again and again leaves no
/// trail behind it.
@Suite struct GatewayRecordsTests {
    static func record(_ id: UInt32, app: String = "org.example.chat") -> GatewayRecords.Record {
        GatewayRecords.Record(
            id: id, sender: ":1.42", app: app, verifiedBy: nil, identifier: "fdo-1-\(id)",
            notification: FreedesktopNotification(appName: app, summary: "Progress", body: "", hints: [])
        )
    }

    /// `notify-send -r` or a progress bar: one id filed 100,000 times is one record, and
    /// what remembers the order of filings stays near it rather than growing with each.
    @Test func aNotificationReplacedAgainAndAgainLeavesNoTrail() {
        var records = GatewayRecords()
        let id = records.newID()
        for _ in 0..<100_000 { records.insert(Self.record(id)) }
        #expect(records.count == 1)
        #expect(records.orderEntries <= 128)
        #expect(records[id]?.identifier == "fdo-1-\(id)")
        #expect(records.id(for: NotificationKey(app: "org.example.chat", identifier: "fdo-1-\(id)")) == id)
    }

    /// Past the bound the oldest filing goes first, even after the order has dropped the
    /// entries replacements left behind: a record filed once at the start outlives none of
    /// the thousands filed after it, and a record filed again counts from its last filing.
    @Test func theOldestGoFirstPastTheBound() {
        var records = GatewayRecords()
        let first = records.newID()
        records.insert(Self.record(first))
        let replaced = records.newID()
        for _ in 0..<10_000 { records.insert(Self.record(replaced)) }
        var later: [UInt32] = []
        for _ in 0..<(GatewayRecords.maximumRecords - 1) {
            later.append(records.newID())
            records.insert(Self.record(later[later.count - 1]))
        }
        #expect(records.count == GatewayRecords.maximumRecords)
        #expect(records[first] == nil)
        #expect(records[replaced] != nil)
        records.insert(Self.record(replaced))
        records.insert(Self.record(records.newID()))
        #expect(records.count == GatewayRecords.maximumRecords)
        #expect(records[later[0]] == nil)
        #expect(records[replaced] != nil)
        #expect(records[later[1]] != nil)
        #expect(records.orderEntries <= 2 * GatewayRecords.maximumRecords)
    }

    /// A removed record is forgotten by its id and by its key, and is not the oldest any
    /// more: past the bound the next oldest goes.
    @Test func aRemovedRecordIsForgotten() {
        var records = GatewayRecords()
        let removed = records.newID()
        records.insert(Self.record(removed))
        let kept = records.newID()
        records.insert(Self.record(kept))
        #expect(records.remove(removed)?.id == removed)
        #expect(records[removed] == nil)
        #expect(records.id(for: NotificationKey(app: "org.example.chat", identifier: "fdo-1-\(removed)")) == nil)
        #expect(records.remove(removed) == nil)
        for _ in 0..<GatewayRecords.maximumRecords { records.insert(Self.record(records.newID())) }
        #expect(records.count == GatewayRecords.maximumRecords)
        #expect(records[kept] == nil, "the oldest still filed went past the bound")
    }
}
