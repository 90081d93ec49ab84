import Testing

@testable import HeraldServer

@Suite struct ContentFreeReasonTests {
    @Test func quotedInputIsLeftOut() {
        #expect(
            ContentFreeReason.of(#"`/interaction/direction` must be one of incoming, outgoing; got "my secret \"plan\"". "#)
                == #"`/interaction/direction` must be one of incoming, outgoing; got "…". "#
        )
        #expect(
            ContentFreeReason.of(#"Herald has no method named "update-contents"; did you mean `update-content`?"#)
                == #"Herald has no method named "…"; did you mean `update-content`?"#
        )
    }

    @Test func heraldsOwnWordsStay() {
        let reason = "This app donated no interaction m-17; donate it before providing its content."
        #expect(ContentFreeReason.of(reason) == reason)
        #expect(ContentFreeReason.of("The Focus “Work” is on.") == "The Focus “Work” is on.")
    }

    @Test func anOpenQuoteAndALongReasonAreCut() {
        #expect(ContentFreeReason.of(#"got "unfinished"#) == #"got "…""#)
        let long = String(repeating: "é", count: 400)
        let cut = ContentFreeReason.of(long)
        #expect(cut.utf8.count <= ContentFreeReason.maxBytes + "…".utf8.count)
        #expect(cut.hasSuffix("…") && cut.dropLast().allSatisfy { $0 == "é" })
    }
}
