import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Shared values for the rule tests: a fixed time, callers, people, and builders.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let app = "org.example.chat"
    static let otherApp = "org.example.phone"

    static let user = Caller(uid: 1000, gid: 1000, pid: 10, isAdministrator: false)
    static let otherUser = Caller(uid: 1001, gid: 1001, pid: 11, isAdministrator: false)
    static let admin = Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true)

    static let avatar = NotificationImage(url: "file:///var/lib/chat/ann.png")
    static let groupImage = NotificationImage(url: "https://example.org/group.png")

    static let ann = Person(
        handle: PersonHandle(value: "ann@example.org", type: .emailAddress),
        displayName: "Ann",
        image: avatar
    )
    static let bo = Person(handle: PersonHandle(value: "+1 555 0100", type: .phoneNumber), displayName: "Bo")
    static let cy = Person(handle: PersonHandle(value: "cy"), displayName: "Cy")
    static let dee = Person(handle: PersonHandle(value: "dee"), displayName: "Dee")

    static func message(
        _ identifier: String? = "m1",
        direction: InteractionDirection = .incoming,
        sender: Person? = ann,
        recipients: [Person]? = nil,
        conversation: String = "c1",
        groupName: String? = nil,
        metadata: DonationMetadata? = nil,
        date: Date? = nil
    ) -> Interaction {
        Interaction(
            identifier: identifier,
            direction: direction,
            date: date,
            intent: .sendMessage(
                SendMessageIntent(
                    sender: sender,
                    recipients: recipients,
                    content: "Lunch?",
                    speakableGroupName: groupName,
                    conversationIdentifier: conversation,
                    groupImage: groupImage,
                    donationMetadata: metadata
                )
            )
        )
    }

    static func call(
        _ identifier: String? = "k1",
        direction: InteractionDirection = .incoming,
        contacts: [Person] = [bo],
        date: Date? = nil
    ) -> Interaction {
        Interaction(
            identifier: identifier,
            direction: direction,
            date: date,
            intent: .startCall(StartCallIntent(contacts: contacts, callCapability: .audioCall, groupImage: groupImage))
        )
    }

    static func state(
        _ configuration: CoreConfiguration = CoreConfiguration(timeZone: .utc)
    )
        -> HeraldState
    {
        HeraldState(configuration: configuration)
    }

    static func content(_ level: InterruptionLevel? = nil, title: String? = "Chat") -> NotificationContent {
        NotificationContent(title: title, body: "Lunch?", interruptionLevel: level)
    }
}

/// The rule a throwing call of the rules broke, or nil.
func ruleError<T>(_ body: () throws -> T) -> RuleError? {
    thrownError(RuleError.self, body)
}

/// The error a throwing call of the protocol (a decoder, the APNs payload) raised, or nil.
func rpcError<T>(_ body: () throws -> T) -> RPCError? {
    thrownError(RPCError.self, body)
}

/// The error of type `E` that `body` threw, or nil; an issue when it threw another.
private func thrownError<E: Error, T>(_ type: E.Type, _ body: () throws -> T) -> E? {
    do {
        _ = try body()
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("Expected \(E.self), got \(error)")
        return nil
    }
}

extension HeraldState {
    /// Donates as `caller` at `now`, expecting success.
    @discardableResult
    mutating func donate(
        _ interaction: Interaction,
        app: String = Fixtures.app,
        caller: Caller = Fixtures.user,
        now: Date = Fixtures.now
    ) throws -> DonateResult {
        try donate(DonateParams(app: app, interaction: interaction), caller: caller, now: now).result
    }

    /// Updates content as `caller` at `now`, expecting success.
    mutating func update(
        _ identifier: String?,
        _ content: NotificationContent = Fixtures.content(),
        app: String = Fixtures.app,
        caller: Caller = Fixtures.user,
        now: Date = Fixtures.now
    ) throws -> MethodOutcome<UpdateContentResult> {
        try updateContent(
            UpdateContentParams(app: app, interactionIdentifier: identifier, content: content),
            caller: caller,
            now: now
        )
    }

    /// Turns `focus` on for `uid` (the user's by default), as an administrator may.
    mutating func focusOn(_ focus: FocusConfiguration, uid: UInt32 = Fixtures.user.uid, now: Date = Fixtures.now) throws {
        _ = try setFocus(SetFocusParams(focus: focus, uid: uid), caller: Fixtures.admin, now: now)
    }
}

extension Delivery {
    var codes: [String] { reasons.map(\.code.rawValue) }
}

/// The storage a dictionary's value refers to, as a number: the same before and after a
/// change made in place, another after a change that copied the table.
func storageIdentity<Key, Value>(of table: [Key: Value]) throws -> UInt {
    try #require(MemoryLayout<[Key: Value]>.size == MemoryLayout<UInt>.size, "a dictionary is one reference here")
    return unsafeBitCast(table, to: UInt.self)
}
