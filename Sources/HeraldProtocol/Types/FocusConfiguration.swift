import FoundationEssentials

/// A named Focus of one uid (`Work`, `Sleep`): who and what may still interrupt while it
/// is on, and when it turns on by itself (`schedules`).
///
/// It either allows the people and apps it names and silences the rest (`allowedPeople`,
/// `allowedApps`), or — when it names any in `silencedPeople` or `silencedApps` —
/// silences those and lets the rest through, as iOS 16's "Silence Notifications From" does.
///
/// Each uid has Focuses of its own; `set-focus` defines one and turns it on by hand,
/// `define-focus` defines one without turning it on.
package struct FocusConfiguration: Codable, Sendable, Hashable {
    package var name: String
    package var allowedPeople: [Person]
    /// App names (`org.example.chat`).
    package var allowedApps: [String]
    /// People this Focus silences, letting everyone else through; absent when it allows.
    package var silencedPeople: [Person]?
    /// Apps this Focus silences, letting every other app through; absent when it allows.
    package var silencedApps: [String]?
    /// Time Sensitive notifications break through; true when absent.
    package var allowTimeSensitive: Bool
    /// A second call from the same caller within the repeated-call window breaks
    /// through; true when absent.
    package var allowRepeatedCalls: Bool
    /// Messages that mention or reply to the user break through; false when absent.
    package var allowMentions: Bool
    /// The Focus ends by itself at this time (turned on by hand only).
    package var until: Date?
    /// When it turns on by itself; absent or empty: only by hand.
    package var schedules: [FocusSchedule]?

    package init(
        name: String,
        allowedPeople: [Person] = [],
        allowedApps: [String] = [],
        silencedPeople: [Person]? = nil,
        silencedApps: [String]? = nil,
        allowTimeSensitive: Bool = true,
        allowRepeatedCalls: Bool = true,
        allowMentions: Bool = false,
        until: Date? = nil,
        schedules: [FocusSchedule]? = nil
    ) {
        self.name = name
        self.allowedPeople = allowedPeople
        self.allowedApps = allowedApps
        self.silencedPeople = silencedPeople?.isEmpty == true ? nil : silencedPeople
        self.silencedApps = silencedApps?.isEmpty == true ? nil : silencedApps
        self.allowTimeSensitive = allowTimeSensitive
        self.allowRepeatedCalls = allowRepeatedCalls
        self.allowMentions = allowMentions
        self.until = until
        self.schedules = schedules
    }
}

extension FocusConfiguration: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            FocusConfiguration(
                name: try members.required("name"),
                allowedPeople: try members.optional("allowedPeople", default: []),
                allowedApps: try members.optional("allowedApps", default: []),
                silencedPeople: try members.optional("silencedPeople"),
                silencedApps: try members.optional("silencedApps"),
                allowTimeSensitive: try members.optional("allowTimeSensitive", default: true),
                allowRepeatedCalls: try members.optional("allowRepeatedCalls", default: true),
                allowMentions: try members.optional("allowMentions", default: false),
                until: try members.optional("until"),
                schedules: try members.optional("schedules")
            )
        }
    }
}

extension FocusConfiguration {
    /// Whether it silences the people and apps it names and lets the rest through, rather
    /// than allowing those it names.
    package var silencesNamed: Bool { silencedPeople != nil || silencedApps != nil }

    /// Whether a notification of `app` is held back by the app lists alone: not allowed,
    /// or silenced — what `request-focus` tells an app.
    package func focuses(app: String) -> Bool {
        silencesNamed ? silencedApps?.contains(app) ?? false : !allowedApps.contains(app)
    }
}
