import FoundationEssentials

/// `set-focus`'s `focus`: a Focus to define (or change) and turn on. A partial update:
/// each member given replaces that setting of the Focus of the same name, each member
/// absent (or null) keeps it — or, for a Focus not defined yet, takes its default. A list
/// given empty (`"allowedPeople": []`) empties it.
package struct FocusUpdate: Codable, Sendable, Hashable {
    package var name: String
    package var allowedPeople: [Person]?
    package var allowedApps: [String]?
    package var silencedPeople: [Person]?
    package var silencedApps: [String]?
    package var allowTimeSensitive: Bool?
    package var allowRepeatedCalls: Bool?
    package var allowMentions: Bool?
    /// The Focus ends by itself at this time; it belongs to this turn on, never kept.
    package var until: Date?
    package var schedules: [FocusSchedule]?

    package init(
        name: String,
        allowedPeople: [Person]? = nil,
        allowedApps: [String]? = nil,
        silencedPeople: [Person]? = nil,
        silencedApps: [String]? = nil,
        allowTimeSensitive: Bool? = nil,
        allowRepeatedCalls: Bool? = nil,
        allowMentions: Bool? = nil,
        until: Date? = nil,
        schedules: [FocusSchedule]? = nil
    ) {
        self.name = name
        self.allowedPeople = allowedPeople
        self.allowedApps = allowedApps
        self.silencedPeople = silencedPeople
        self.silencedApps = silencedApps
        self.allowTimeSensitive = allowTimeSensitive
        self.allowRepeatedCalls = allowRepeatedCalls
        self.allowMentions = allowMentions
        self.until = until
        self.schedules = schedules
    }

    /// Every setting of `configuration` given: the whole Focus replaced (schedules kept
    /// when it has none, as a definition without schedules always did).
    package init(_ configuration: FocusConfiguration) {
        self.init(
            name: configuration.name,
            allowedPeople: configuration.allowedPeople,
            allowedApps: configuration.allowedApps,
            silencedPeople: configuration.silencedPeople ?? [],
            silencedApps: configuration.silencedApps ?? [],
            allowTimeSensitive: configuration.allowTimeSensitive,
            allowRepeatedCalls: configuration.allowRepeatedCalls,
            allowMentions: configuration.allowMentions,
            until: configuration.until,
            schedules: configuration.schedules
        )
    }

    /// `base` (the Focus of this name as defined, or nil for a new one and its defaults)
    /// with the members given replacing its settings.
    package func applied(to base: FocusConfiguration?) -> FocusConfiguration {
        var focus = base ?? FocusConfiguration(name: name)
        focus.name = name
        if let allowedPeople { focus.allowedPeople = allowedPeople }
        if let allowedApps { focus.allowedApps = allowedApps }
        if let silencedPeople { focus.silencedPeople = silencedPeople.isEmpty ? nil : silencedPeople }
        if let silencedApps { focus.silencedApps = silencedApps.isEmpty ? nil : silencedApps }
        if let allowTimeSensitive { focus.allowTimeSensitive = allowTimeSensitive }
        if let allowRepeatedCalls { focus.allowRepeatedCalls = allowRepeatedCalls }
        if let allowMentions { focus.allowMentions = allowMentions }
        focus.until = until
        focus.schedules = schedules
        return focus
    }
}

extension FocusUpdate: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            FocusUpdate(
                name: try members.required("name"),
                allowedPeople: try members.optional("allowedPeople"),
                allowedApps: try members.optional("allowedApps"),
                silencedPeople: try members.optional("silencedPeople"),
                silencedApps: try members.optional("silencedApps"),
                allowTimeSensitive: try members.optional("allowTimeSensitive"),
                allowRepeatedCalls: try members.optional("allowRepeatedCalls"),
                allowMentions: try members.optional("allowMentions"),
                until: try members.optional("until"),
                schedules: try members.optional("schedules")
            )
        }
    }
}
