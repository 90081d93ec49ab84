import FoundationEssentials
import HeraldProtocol

/// The narrow snapshot API of the Focuses and summaries (the storage module encodes them):
/// plain values out, checked values in, and the migration of a format 3 snapshot's host
/// Focus and summary.
extension HeraldState {
    // MARK: Focuses

    /// One uid's Focuses as a snapshot keeps them.
    package struct StoredFocus: Sendable, Hashable {
        package struct Choice: Sendable, Hashable {
            package var name: String?
            package var until: Date?
            package var endsAt: Date?
            /// The other host it was made on.
            package var origin: FocusOrigin?

            package init(name: String?, until: Date?, endsAt: Date?, origin: FocusOrigin? = nil) {
                self.name = name
                self.until = until
                self.endsAt = endsAt
                self.origin = origin
            }
        }

        package struct Current: Sendable, Hashable {
            package var name: String
            package var reason: FocusReason
            package var endsAt: Date?
            package var activation: UInt64
            package var windowStart: Date?

            package init(name: String, reason: FocusReason, endsAt: Date?, activation: UInt64, windowStart: Date?) {
                self.name = name
                self.reason = reason
                self.endsAt = endsAt
                self.activation = activation
                self.windowStart = windowStart
            }
        }

        package var uid: UInt32
        /// Sorted by name, schedules in.
        package var definitions: [FocusConfiguration]
        package var manual: Choice?
        package var current: Current?
        package var nextChange: Date?

        package init(uid: UInt32, definitions: [FocusConfiguration], manual: Choice?, current: Current?, nextChange: Date?) {
            self.uid = uid
            self.definitions = definitions
            self.manual = manual
            self.current = current
            self.nextChange = nextChange
        }
    }

    /// The activation count and every uid's Focuses, by uid.
    package var storedFocuses: (activations: UInt64, uids: [StoredFocus]) {
        let uids = focuses.byUID.keys.sorted().map { uid in
            let state = focuses[uid]
            return StoredFocus(
                uid: uid,
                definitions: state.sortedDefinitions.map(\.wire),
                manual: state.manual.map { StoredFocus.Choice(name: $0.name, until: $0.until, endsAt: $0.endsAt, origin: $0.origin) },
                current: state.current.map {
                    StoredFocus.Current(name: $0.name, reason: $0.reason, endsAt: $0.endsAt, activation: $0.activation, windowStart: $0.windowStart)
                },
                nextChange: state.nextChange
            )
        }
        return (focuses.activations, uids)
    }

    /// False unless the values are as the rules make them: each uid once, definitions
    /// named once with valid schedules, the Focus on among them, activations within the count.
    package mutating func restoreFocuses(activations: UInt64, uids: [StoredFocus]) -> Bool {
        var table = FocusTable()
        table.activations = activations
        for stored in uids {
            guard table.byUID[stored.uid] == nil else { return false }
            var definitions: [FocusState.Definition] = []
            for configuration in stored.definitions {
                guard !configuration.name.isEmpty, !definitions.contains(where: { $0.configuration.name == configuration.name }) else { return false }
                var rules: [FocusScheduleRule] = []
                for schedule in configuration.schedules ?? [] {
                    guard let rule = try? FocusScheduleRule(schedule, at: []) else { return false }
                    rules.append(rule)
                }
                var plain = configuration
                plain.schedules = nil
                plain.until = nil
                definitions.append(FocusState.Definition(configuration: plain, schedules: rules))
            }
            let names = Set(definitions.map(\.configuration.name))
            if let current = stored.current, !names.contains(current.name) || current.activation > activations { return false }
            if let name = stored.manual?.name, !names.contains(name) { return false }
            table.restore(
                stored.uid,
                FocusState(
                    definitions: definitions,
                    manual: stored.manual.map { FocusState.ManualChoice(name: $0.name, until: $0.until, endsAt: $0.endsAt, origin: $0.origin) },
                    current: stored.current.map {
                        FocusState.Active(name: $0.name, reason: $0.reason, endsAt: $0.endsAt, activation: $0.activation, windowStart: $0.windowStart)
                    },
                    nextChange: stored.nextChange
                )
            )
        }
        focuses = table
        return true
    }

    // MARK: Summaries

    /// Each uid's summary: its apps and times of day, as `set-summary` left them, by uid.
    package var storedSummaries: [(uid: UInt32, apps: [String], times: [(hour: Int, minute: Int, second: Int)])] {
        summaries.keys.sorted().map { uid in
            let summary = summaries[uid]!
            return (uid, summary.apps, summary.times.map { ($0.hour, $0.minute, $0.second) })
        }
    }

    /// False unless the values are as `set-summary` makes them (per uid: no app or time
    /// twice, times sorted, each a time of day), each uid once.
    package mutating func restoreSummary(uid: UInt32, apps: [String], times: [(hour: Int, minute: Int, second: Int)]) -> Bool {
        guard summaries[uid] == nil, let summary = Self.checkedSummary(apps: apps, times: times) else { return false }
        summaries[uid] = summary
        return true
    }

    private static func checkedSummary(apps: [String], times: [(hour: Int, minute: Int, second: Int)]) -> SummarySchedule? {
        let clockTimes = times.map { ClockTime(hour: $0.hour, minute: $0.minute, second: $0.second) }
        let restored = SummarySchedule(apps: apps, times: clockTimes)
        guard restored.apps == apps, restored.times == clockTimes, clockTimes.allSatisfy(\.isTimeOfDay) else { return nil }
        return restored
    }

    // MARK: Format 3: the host's Focus and summary

    /// A format 3 snapshot's host-wide Focus (on or not) and summary, kept until
    /// ``finishRestore()`` gives them to every uid.
    struct LegacyHostSettings: Sendable {
        var focus: FocusConfiguration?
        var activation: UInt64 = 0
        var summary: SummarySchedule?
    }

    /// A format 3 snapshot's host Focus (nil: none on) and its activation count.
    package mutating func restoreHostFocus(_ configuration: FocusConfiguration?, activation: UInt64) {
        legacyHostSettings = legacyHostSettings ?? LegacyHostSettings()
        legacyHostSettings?.focus = configuration
        legacyHostSettings?.activation = activation
    }

    /// A format 3 snapshot's host summary; false unless as `set-summary` makes it.
    package mutating func restoreHostSummary(apps: [String], times: [(hour: Int, minute: Int, second: Int)]) -> Bool {
        guard let summary = Self.checkedSummary(apps: apps, times: times) else { return false }
        legacyHostSettings = legacyHostSettings ?? LegacyHostSettings()
        legacyHostSettings?.summary = summary
        return true
    }

    /// After every section is restored: a format 3 snapshot's host Focus and summary
    /// become those of every uid that has interactions or notifications — the Focus
    /// defined under its name and, if it was on, on by hand (with its `until`) in the same
    /// activation, so that its silenced conversations still count.
    package mutating func finishRestore() {
        guard let legacy = legacyHostSettings else { return }
        legacyHostSettings = nil
        focuses.activations = max(focuses.activations, legacy.activation)
        let uids = Set(interactions.uids).union(notifications.lists.keys)
        for uid in uids {
            if let summary = legacy.summary, !(summary.apps.isEmpty && summary.times.isEmpty), summaries[uid] == nil {
                summaries[uid] = summary
            }
            guard var configuration = legacy.focus, focuses.byUID[uid] == nil else { continue }
            let until = configuration.until
            configuration.until = nil
            configuration.schedules = nil
            focuses.restore(
                uid,
                FocusState(
                    definitions: [FocusState.Definition(configuration: configuration, schedules: [])],
                    manual: FocusState.ManualChoice(name: configuration.name, until: until, endsAt: until),
                    current: FocusState.Active(
                        name: configuration.name, reason: until == nil ? .manual : .until, endsAt: until, activation: legacy.activation,
                        windowStart: nil
                    ),
                    nextChange: until
                )
            )
        }
    }
}
