/// A rule that a request broke: what kind of rule, a sentence for a person, and the
/// member of the request at fault.
///
/// Core throws only this. The protocol layer turns it into the wire's error, the kind
/// into its code and the path into a JSON Pointer (`data.pointer`); Core knows neither.
package struct RuleError: Error, Sendable, Hashable {
    /// What kind of rule was broken; open to new kinds, so not an enum clients switch on.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case invalidParams
            case interactionNotFound
            case cannotProvideContent
            case invalidParticipants
            case focusAuthorizationRequired
            case capabilityRequired
            case permissionDenied
            case identifierConflict
            case notificationNotFound
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        package var description: String { String(describing: kind) }

        /// A member's value breaks a rule of its own: its shape, range or format.
        package static let invalidParams = Code(.invalidParams)
        /// No interaction with that identifier was donated by this (uid, app).
        package static let interactionNotFound = Code(.interactionNotFound)
        /// The interaction cannot provide notification content (it is outgoing).
        package static let cannotProvideContent = Code(.cannotProvideContent)
        /// The interaction's people break a rule (a sender on an outgoing message, the current user included).
        package static let invalidParticipants = Code(.invalidParticipants)
        /// The app's Focus authorization must be `authorized` for this.
        package static let focusAuthorizationRequired = Code(.focusAuthorizationRequired)
        /// The app lacks the capability (communication, timeSensitive, critical) this needs.
        package static let capabilityRequired = Code(.capabilityRequired)
        /// The caller may not do this.
        package static let permissionDenied = Code(.permissionDenied)
        /// The identifier was donated before with a different interaction.
        package static let identifierConflict = Code(.identifierConflict)
        /// No notification with that identifier is in the (uid, app)'s list.
        package static let notificationNotFound = Code(.notificationNotFound)
    }

    package var code: Code
    /// A sentence for a person: what is wrong and what to do about it.
    package var reason: String
    /// The member of the request at fault; empty for the request as a whole.
    package var path: MemberPath
    /// The limit that was reached, when a limit was: the client can adjust to it.
    package var limit: Int?
    /// A refusal a person meets in ordinary use — asking for what is an administrator's, or
    /// an app's method on a daemon that requires app identities — rather than a caller
    /// reaching past its own (an app posing as another, or as the person; another uid's
    /// data): journaled as a notice, not a warning.
    package var isRoutineRefusal = false

    package init(_ code: Code, _ reason: String, at path: MemberPath, limit: Int? = nil) {
        self.code = code
        self.reason = reason
        self.path = path
        self.limit = limit
    }

    /// A routine refusal (``isRoutineRefusal``): the person asked for what is not theirs to
    /// have, such as an administrator's method or grant.
    static func routineRefusal(_ reason: String, at path: MemberPath) -> RuleError {
        var error = RuleError(.permissionDenied, reason, at: path)
        error.isRoutineRefusal = true
        return error
    }

    /// A member's value breaks a rule of its own.
    static func invalidParams(_ reason: String, at path: MemberPath) -> RuleError {
        RuleError(.invalidParams, reason, at: path)
    }
}

/// Where a member sits in a request's params: member names and array positions, from the
/// params down, such as `interaction`, `intent`, `recipients`, 1.
package struct MemberPath: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One step down: an object's member by name, or an array's element by position.
    package enum Component: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case member(String)
        case index(Int)

        package init(stringLiteral name: String) {
            self = .member(name)
        }

        package init(integerLiteral index: Int) {
            self = .index(index)
        }
    }

    /// The steps, from the params down.
    package private(set) var components: [Component]

    /// The params as a whole.
    package init() {
        self.components = []
    }

    package init(_ components: [Component]) {
        self.components = components
    }

    package init(arrayLiteral components: Component...) {
        self.components = components
    }

    /// This path followed by a member's name.
    package func appending(_ name: String) -> MemberPath {
        var copy = self
        copy.components.append(.member(name))
        return copy
    }

    /// This path followed by an array position.
    package func appending(_ index: Int) -> MemberPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    /// This path followed by another's steps.
    package func appending(_ other: MemberPath) -> MemberPath {
        var copy = self
        copy.components.append(contentsOf: other.components)
        return copy
    }

    /// The steps joined by dots, for people reading logs and test failures.
    package var description: String {
        components.map { component in
            switch component {
            case .member(let name): name
            case .index(let index): String(index)
            }
        }.joined(separator: ".")
    }
}
