import Foundation

/// A named Focus of one uid (`Work`, `Sleep`): who and what may still interrupt while it
/// is on, and when it turns on by itself (`schedules`).
///
/// Each uid has Focuses of its own; `set-focus` defines one and turns it on by hand,
/// `define-focus` defines one without turning it on.
package struct FocusConfiguration: Codable, Sendable, Hashable {
    package var name: String
    package var allowedPeople: [Person]
    /// App names (`org.example.chat`).
    package var allowedApps: [String]
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
        allowTimeSensitive: Bool = true,
        allowRepeatedCalls: Bool = true,
        allowMentions: Bool = false,
        until: Date? = nil,
        schedules: [FocusSchedule]? = nil
    ) {
        self.name = name
        self.allowedPeople = allowedPeople
        self.allowedApps = allowedApps
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
                allowTimeSensitive: try members.optional("allowTimeSensitive", default: true),
                allowRepeatedCalls: try members.optional("allowRepeatedCalls", default: true),
                allowMentions: try members.optional("allowMentions", default: false),
                until: try members.optional("until"),
                schedules: try members.optional("schedules")
            )
        }
    }
}
