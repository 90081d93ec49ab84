import Testing

@testable import HeraldSystemd

extension SystemdTests {
    /// The daemon's own ids; each method's ids, and the catalog against all of them, are
    /// checked with the method descriptors (HeraldServerTests' MethodDescriptorTests).
    @Suite("JournalMessageID")
    struct JournalMessageIDTests {
        @Test func theDaemonsOwnIDsAreFixedAndDistinct() {
            #expect(JournalMessageID.droppedEntries == "0b0c9b2c1d8e4f6aa3b1f1e2d3c4b5a6")
            #expect(JournalMessageID.focusChanged == "8e4b1c7d2a5f4093b6d8e1f0c3a7b925")
            #expect(JournalMessageID.snoozeEnded == "b415a093677b41b3ac3a93a646d0c4eb")
            #expect(JournalMessageID.focusHoldBegan == "8e745fbbd7ee495ea2767ee64dc6b6a6")
            #expect(JournalMessageID.focusHoldEnded == "b8eec5a30cdc451c90651f7dbb0edea2")
            let all = JournalMessageID.all
            #expect(all.count == 23)
            #expect(Set(all).count == all.count, "ids are unique")
            for id in all {
                #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id) is 128-bit lowercase hex")
            }
        }
    }
}
