import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldProtocol

/// People to suggest, ranked by how often and how recently the user reached them:
/// the recipients of outgoing messages and the contacts of outgoing calls. Incoming
/// donations never create suggestions, as the seeds say.
///
/// Each donation naming a person adds 0.5^(age / 7 days) to their score, its age counted
/// from its date (else its donation time) to now, and never negative. Ties go to more
/// donations, then the later last date, then the name. A person is told apart by their
/// first identity key (contact identifier, else handle, else custom identifier), else
/// their display name.
///
/// Computed from the stored interactions when asked, so deleted and expired
/// interactions stop counting at once.
struct PeopleSuggestions {
    static let halfLife: TimeInterval = 7 * 24 * 3600

    private struct Tally {
        var person: Person
        var personDate: Date
        var messageCount = 0
        var callCount = 0
        var lastDate: Date
        var score = 0.0
    }

    private var tallies: [String: Tally] = [:]
    let now: Date

    init(now: Date) {
        self.now = now
    }

    /// Counts `stored` if it is outgoing.
    mutating func add(_ stored: StoredInteraction) {
        guard stored.record.isOutgoing else { return }
        let date = stored.effectiveDate
        let weight = exp2(-max(0, now.timeIntervalSince(date)) / Self.halfLife)
        switch stored.interaction.intent {
        case .sendMessage(let message):
            for person in message.recipients ?? [] {
                add(person, date: date, weight: weight, isCall: false)
            }
        case .startCall(let call):
            for person in call.contacts {
                add(person, date: date, weight: weight, isCall: true)
            }
        }
    }

    /// One look-up of the person's tally, changed in place: with one person per donation,
    /// a copy of the tally (and of its person) both ways was a third of the time.
    private mutating func add(_ person: Person, date: Date, weight: Double, isCall: Bool) {
        let key = PersonIdentity.firstKey(of: person) ?? "name:" + DisplayName.of(person)
        Self.count(&tallies[key, default: Tally(person: person, personDate: date, lastDate: date)], person, date, weight, isCall)
    }

    private static func count(_ tally: inout Tally, _ person: Person, _ date: Date, _ weight: Double, _ isCall: Bool) {
        if date >= tally.personDate {
            tally.person = person
            tally.personDate = date
        }
        if isCall { tally.callCount += 1 } else { tally.messageCount += 1 }
        tally.lastDate = max(tally.lastDate, date)
        tally.score += weight
    }

    /// The best `limit` suggestions, best first.
    func ranked(limit: Int) -> [PersonSuggestion] {
        let suggestions = tallies.values.map { tally in
            PersonSuggestion(
                person: tally.person,
                count: tally.messageCount + tally.callCount,
                messageCount: tally.messageCount,
                callCount: tally.callCount,
                lastDate: tally.lastDate,
                score: (tally.score * 1_000_000).rounded() / 1_000_000
            )
        }
        return Array(
            suggestions.sorted { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.count != b.count { return a.count > b.count }
                if a.lastDate != b.lastDate { return a.lastDate > b.lastDate }
                return DisplayName.of(a.person) < DisplayName.of(b.person)
            }.prefix(limit)
        )
    }
}

extension HeraldState {
    /// `suggest-people` (the person, as its descriptor says; the method table checks): see ``PeopleSuggestions``. `limit` is 1–1000,
    /// 10 when absent; `uid` and `app` narrow the donations counted. A person counts only their own
    /// uid's (another uid is 1006 at `/uid`), so that heraldctl can turn a name into a handle;
    /// an administrator every uid's unless `uid` narrows it.
    package func suggestPeople(
        _ p: SuggestPeopleParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SuggestPeopleResult>
    {
        let limit = p.limit ?? 10
        guard (1...1000).contains(limit) else {
            throw .invalidParams("limit is from 1 to 1000.", at: ["limit"])
        }
        if let app = p.app {
            try AppName.validate(app)
        }
        let uid = caller.isAdministrator ? p.uid : try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        var suggestions = PeopleSuggestions(now: now)
        let appID: AppNameTable.ID?? = p.app.map { interactions.apps.id(of: $0) }
        if appID != .some(.none) {
            interactions.forEach { key, stored in
                if let uid, key.uid != uid { return }
                if let appID, key.app != appID { return }
                suggestions.add(stored)
            }
        }
        return MethodOutcome(
            result: SuggestPeopleResult(people: suggestions.ranked(limit: limit)),
            audit: AuditRecord(app: p.app)
        )
    }
}
