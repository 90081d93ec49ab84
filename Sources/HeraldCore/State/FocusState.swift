import Foundation
import HeraldProtocol

/// The host's Focus: the one in effect, if any, and its activation.
///
/// Every `set-focus` that turns a Focus on starts a new activation, so that "silenced by
/// this same Focus" (notify-anyway) means this activation, not an earlier one of the
/// same name. A Focus with `until` ends by itself at that time.
struct FocusState: Sendable {
    private(set) var configuration: FocusConfiguration?
    /// Counts activations; the current one's number while a Focus is on.
    private(set) var activation: UInt64 = 0
    /// The identity keys of the allowed people, for matching senders.
    private(set) var allowedPeopleKeys: Set<String> = []

    init() {}

    /// The Focus `configuration` (nil for none) after `activation` activations, as a
    /// snapshot restores it.
    init(configuration: FocusConfiguration?, activation: UInt64) {
        self.configuration = configuration
        self.activation = activation
        self.allowedPeopleKeys = Self.keys(of: configuration)
    }

    /// The Focus in effect at `now`: nil when none is on or its `until` has passed.
    func active(at now: Date) -> FocusConfiguration? {
        guard let configuration else { return nil }
        if let until = configuration.until, until <= now {
            return nil
        }
        return configuration
    }

    mutating func turnOn(_ focus: FocusConfiguration) {
        configuration = focus
        activation += 1
        allowedPeopleKeys = Self.keys(of: focus)
    }

    mutating func turnOff() {
        configuration = nil
        allowedPeopleKeys = []
    }

    /// Ends a Focus whose `until` has passed; true if one ended.
    mutating func expire(at now: Date) -> Bool {
        guard let until = configuration?.until, until <= now else { return false }
        turnOff()
        return true
    }

    /// Whether `person` is one of the Focus's allowed people.
    func allows(_ person: Person) -> Bool {
        PersonIdentity.matches(person, anyOf: allowedPeopleKeys)
    }

    /// `isFocused` for `app` at `now`: a Focus is on and the app is not allowed by it.
    func isFocused(app: String, at now: Date) -> Bool {
        guard let focus = active(at: now) else { return false }
        return !focus.allowedApps.contains(app)
    }

    private static func keys(of focus: FocusConfiguration?) -> Set<String> {
        Set((focus?.allowedPeople ?? []).flatMap(PersonIdentity.keys(of:)))
    }
}
