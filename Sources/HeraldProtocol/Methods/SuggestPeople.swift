import FoundationEssentials

/// `suggest-people` (the person, for their own uid; administrators for any): the people
/// the user reaches most, ranked by the frequency and recency of OUTGOING donations —
/// incoming ones never create suggestions.
package enum SuggestPeopleMethod: HeraldMethod {
    package static let name = "suggest-people"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "6a80e02f4a034ab6bc84dea5a1d76c63", error: "e252e067e21841a6af82264ac3111272")
    /// A scan of every interaction: about a second for 300,000. Answered on a thread of its
    /// own under `SCHED_IDLE`, from a copy of the state, so nothing else waits for it.
    package static let placement = MethodPlacement.idleThread
    package typealias Params = SuggestPeopleParams
    package typealias Result = SuggestPeopleResult
}

package struct SuggestPeopleParams: Codable, Sendable, Hashable {
    /// 1–1000; 10 when absent.
    package var limit: Int?
    /// Only this uid's donations; every uid's when an administrator leaves it out, the
    /// caller's own for anyone else (who may name no other).
    package var uid: UInt32?
    /// Only this app's donations; every app's when absent.
    package var app: String?

    package init(limit: Int? = nil, uid: UInt32? = nil, app: String? = nil) {
        self.limit = limit
        self.uid = uid
        self.app = app
    }
}

extension SuggestPeopleParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SuggestPeopleParams(
                limit: try members.optional("limit"),
                uid: try members.optional("uid"),
                app: try members.optional("app")
            )
        }
    }
}

package struct SuggestPeopleResult: Codable, Sendable, Hashable {
    /// Best first.
    package var people: [PersonSuggestion]

    package init(people: [PersonSuggestion]) {
        self.people = people
    }
}

/// One suggested person, with what ranked them.
package struct PersonSuggestion: Codable, Sendable, Hashable {
    /// As the latest outgoing donation named them.
    package var person: Person
    /// Outgoing donations naming them: messages plus calls.
    package var count: Int
    package var messageCount: Int
    package var callCount: Int
    /// The date of the latest of those donations.
    package var lastDate: Date
    /// Each donation weighs 0.5^(age / 7 days); the sum, rounded to 6 decimals.
    package var score: Double

    package init(person: Person, count: Int, messageCount: Int, callCount: Int, lastDate: Date, score: Double) {
        self.person = person
        self.count = count
        self.messageCount = messageCount
        self.callCount = callCount
        self.lastDate = lastDate
        self.score = score
    }
}
