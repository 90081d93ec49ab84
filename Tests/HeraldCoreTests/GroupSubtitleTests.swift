import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct GroupSubtitleTests {
    @Test func listsUpToTwoWhenEveryoneIsNamed() {
        #expect(GroupSubtitle.summary(named: ["Ann"], count: 1, preposition: .to) == "To you & Ann")
        #expect(GroupSubtitle.summary(named: ["Ann", "Bo"], count: 2, preposition: .to) == "To you, Ann & Bo")
    }

    @Test func namesTheFirstAndCountsTheRest() {
        #expect(GroupSubtitle.summary(named: ["Ann", "Bo", "Cy"], count: 3, preposition: .to) == "To you, Ann & 2 others")
        #expect(GroupSubtitle.summary(named: ["Ann"], count: 3, preposition: .to) == "To you, Ann & 2 others")
        #expect(GroupSubtitle.summary(named: ["Ann"], count: 2, preposition: .to) == "To you, Ann & 1 other")
    }

    @Test func countsWhenNobodyIsNamed() {
        #expect(GroupSubtitle.summary(named: [], count: 5, preposition: .to) == "To you & 5 others")
        #expect(GroupSubtitle.summary(named: [], count: 1, preposition: .to) == "To you & 1 other")
    }

    @Test func callsSayWith() {
        #expect(GroupSubtitle.summary(named: ["Ann"], count: 1, preposition: .with) == "With you & Ann")
        #expect(GroupSubtitle.summary(named: ["Ann", "Bo"], count: 2, preposition: .with) == "With you, Ann & Bo")
    }

    @Test func noOthersIsNoGroup() {
        #expect(GroupSubtitle.summary(named: [], count: 0, preposition: .to) == nil)
    }

    @Test func aCountBelowTheNamedCountsTheNamed() {
        #expect(GroupSubtitle.summary(named: ["Ann", "Bo"], count: 1, preposition: .to) == "To you, Ann & Bo")
    }
}

@Suite struct DisplayNameTests {
    @Test func prefersDisplayNameThenNamesThenNicknameThenHandle() {
        let components = NameComponents(givenName: "Ann", familyName: "Lee", nickname: "Annie")
        #expect(DisplayName.of(Person(handle: .init(value: "a@x"), displayName: "A. Lee", nameComponents: components)) == "A. Lee")
        #expect(DisplayName.of(Person(handle: .init(value: "a@x"), nameComponents: components)) == "Ann Lee")
        #expect(DisplayName.of(Person(handle: .init(value: "a@x"), nameComponents: .init(familyName: "Lee"))) == "Lee")
        #expect(DisplayName.of(Person(handle: .init(value: "a@x"), nameComponents: .init(nickname: "Annie"))) == "Annie")
        #expect(DisplayName.of(Person(handle: .init(value: "a@x"), displayName: "")) == "a@x")
    }
}

@Suite struct PersonIdentityTests {
    @Test func emailsMatchCaseInsensitively() {
        let allowed = Set(PersonIdentity.keys(of: Person(handle: .init(value: "Ann@Example.ORG", type: .emailAddress))))
        #expect(PersonIdentity.matches(Person(handle: .init(value: "ann@example.org")), anyOf: allowed))
    }

    @Test func phoneNumbersMatchByDigits() {
        let allowed = Set(PersonIdentity.keys(of: Person(handle: .init(value: "+1 (555) 010-0", type: .phoneNumber))))
        #expect(PersonIdentity.matches(Person(handle: .init(value: "15550100", type: .phoneNumber)), anyOf: allowed))
        #expect(PersonIdentity.matches(Person(handle: .init(value: "1-555-0100")), anyOf: allowed))
        #expect(!PersonIdentity.matches(Person(handle: .init(value: "5550100", type: .phoneNumber)), anyOf: allowed))
    }

    @Test func aliasesContactAndCustomIdentifiersMatch() {
        let allowed = Set(
            PersonIdentity.keys(
                of: Person(displayName: "Ann", contactIdentifier: "C-1", customIdentifier: "u42")
            ) + PersonIdentity.keys(of: Person(handle: .init(value: "ann@work.example")))
        )
        #expect(PersonIdentity.matches(Person(handle: .init(value: "x"), contactIdentifier: "C-1"), anyOf: allowed))
        #expect(PersonIdentity.matches(Person(handle: .init(value: "x"), customIdentifier: "u42"), anyOf: allowed))
        #expect(
            PersonIdentity.matches(
                Person(handle: .init(value: "x"), aliases: [.init(value: "ANN@work.example", type: .emailAddress)]),
                anyOf: allowed
            )
        )
        #expect(!PersonIdentity.matches(Person(displayName: "Ann"), anyOf: allowed))
        #expect(!PersonIdentity.matches(Person(handle: .init(value: "u42")), anyOf: allowed))
    }
}
