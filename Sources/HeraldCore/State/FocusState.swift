import FoundationEssentials
import HeraldProtocol

/// One uid's Focuses: its named definitions, the person's own choice (made by hand), and
/// the Focus in effect, brought up to date at each change.
///
/// At most one Focus is on. A choice made by hand (`set-focus`, on or off) wins over the
/// schedules until it ends: at its `until`, or — without `until` — at the next start or
/// end of any of the uid's schedule windows after it was made (never, without schedules).
/// Otherwise the schedules decide: of the windows open at a time, the one that started
/// last wins, and of two that started together, the Focus whose name sorts first.
///
/// Holds (``FocusHold``, `hold-focus`) win over both: the most recent hold not overridden
/// decides. A choice by hand made while holds stand overrides every one of them; a hold
/// taken after it wins again. When the last deciding hold ends, the choice by hand or the
/// schedules decide as they would have.
///
/// Every change to another Focus, a new schedule window, or a turn on by hand of a Focus
/// that is not on starts a new activation, so that "silenced by this same Focus"
/// (notify-anyway) and its digest mean this one. Setting the Focus already on (new
/// settings, a new `until`, or none), or holding it, continues its activation (issue 45).
struct FocusState: Sendable {
    /// A named Focus: its configuration (without `until` or schedules) and its schedules.
    struct Definition: Sendable, Hashable {
        var configuration: FocusConfiguration
        var schedules: [FocusScheduleRule]

        /// The configuration as the wire shows a definition: schedules in, `until` out.
        var wire: FocusConfiguration {
            var wire = configuration
            wire.until = nil
            wire.schedules = schedules.isEmpty ? nil : schedules.map(\.wire)
            return wire
        }
    }

    /// A choice made by hand: a Focus on (`name`), or every Focus off (nil).
    struct ManualChoice: Sendable, Hashable {
        var name: String?
        var until: Date?
        /// When the choice ends: `until`, else the next schedule start or end after it
        /// was made; nil: when the person changes it.
        var endsAt: Date?
        /// The other host of the person's it was made on (herald-sync's `set-focus`); nil: here.
        var origin: FocusOrigin?
    }

    /// The Focus in effect.
    struct Active: Sendable, Hashable {
        var name: String
        var reason: FocusReason
        var endsAt: Date?
        var activation: UInt64
        /// The schedule window's start (nil when on by hand), so that a new window is a
        /// new activation.
        var windowStart: Date?
    }

    /// What the Focus in effect is at a time, and when that changes next by itself.
    struct Evaluation: Sendable, Hashable {
        var name: String?
        var reason: FocusReason
        var endsAt: Date?
        var windowStart: Date?
        var nextChange: Date?
    }

    /// The most named Focuses a uid may define, schedules a Focus may have, and schedules
    /// a uid may have in all: they bound the cost of finding the next change (a look at
    /// each schedule on up to nine days; about 2 µs a look in a debug build).
    static let maxFocuses = 32
    static let maxSchedules = 8
    static let maxSchedulesPerUID = 32

    private(set) var definitions: [String: Definition] = [:]
    private(set) var manual: ManualChoice?
    private(set) var current: Active?
    /// The holds standing, oldest first.
    private(set) var holds: [FocusHold] = []
    /// When the Focus in effect changes next by itself; nil: never.
    private(set) var nextChange: Date?
    /// The identity keys of the current Focus's allowed people, for matching senders.
    private(set) var allowedPeopleKeys: Set<String> = []
    /// The current Focus's silenced people, by their identity keys.
    private(set) var silencedPeopleKeys: Set<String> = []

    init() {}

    /// The definitions, sorted by name.
    var sortedDefinitions: [Definition] {
        definitions.values.sorted { $0.configuration.name < $1.configuration.name }
    }

    /// The current Focus's configuration (with the `until` of a choice by hand).
    var currentConfiguration: FocusConfiguration? {
        guard let current, var configuration = definitions[current.name]?.configuration else { return nil }
        configuration.until = current.reason == .until ? current.endsAt : nil
        return configuration
    }

    /// Whether ``current`` is out of date at `now` (a change by itself is due).
    func isDue(at now: Date) -> Bool {
        nextChange.map { now >= $0 } ?? false
    }

    /// The Focus in effect at `now`, without changing anything: ``current`` unless a
    /// change is due, else evaluated afresh. For reads from a copy of the state.
    func configuration(at now: Date, zone: ZoneRules) -> FocusConfiguration? {
        guard isDue(at: now) else { return currentConfiguration }
        guard let name = evaluate(at: now, zone: zone).name else { return nil }
        return definitions[name]?.configuration
    }

    /// Whether `person` is one of the current Focus's allowed people.
    func allows(_ person: Person) -> Bool {
        PersonIdentity.matches(person, anyOf: allowedPeopleKeys)
    }

    /// Whether `person` is one of the current Focus's silenced people.
    func silences(_ person: Person) -> Bool {
        !silencedPeopleKeys.isEmpty && PersonIdentity.matches(person, anyOf: silencedPeopleKeys)
    }

    /// The host the choice by hand deciding the Focus at `now` was made on, when it was
    /// another (nil when it was made here, or when a hold or the schedules decide).
    func origin(at now: Date) -> FocusOrigin? {
        guard !holds.contains(where: { !$0.overridden }), let manual, manual.endsAt.map({ now < $0 }) ?? true else { return nil }
        return manual.origin
    }

    // MARK: Evaluation

    /// The Focus in effect at `now`: the latest hold not overridden, else the choice by
    /// hand while it lasts, else the schedules. While held, nothing changes by itself.
    func evaluate(at now: Date, zone: ZoneRules) -> Evaluation {
        if let hold = holds.last(where: { !$0.overridden }) {
            return Evaluation(name: hold.name, reason: .held, endsAt: nil, windowStart: nil, nextChange: nil)
        }
        if let manual, manual.endsAt.map({ now < $0 }) ?? true {
            return Evaluation(
                name: manual.name, reason: manual.until != nil ? .until : .manual, endsAt: manual.endsAt, windowStart: nil,
                nextChange: manual.endsAt
            )
        }
        return scheduled(at: now, zone: zone)
    }

    /// What the schedules alone turn on at `now`, and their next start or end after it.
    ///
    /// Looks day by day from yesterday (a window that started then may still be open)
    /// up to a week ahead (where the next start of any schedule is), and stops after the
    /// day of the first edge found: windows of later days start after it.
    func scheduled(at now: Date, zone: ZoneRules) -> Evaluation {
                let today = LocalTime.day(of: now, in: zone)
        var best: (window: DateInterval, name: String)?
        var next: Date?
        for day in (today - 1)...(today + 7) {
            if let next, day > LocalTime.day(of: next, in: zone) { break }
            for definition in definitions.values {
                let name = definition.configuration.name
                for rule in definition.schedules {
                    guard let window = rule.window(onDay: day, in: zone) else { continue }
                    if window.start <= now, now < window.end,
                        best.map({ $0.window.start < window.start || ($0.window.start == window.start && name < $0.name) }) ?? true
                    {
                        best = (window, name)
                    }
                    for edge in [window.start, window.end] where edge > now && edge < (next ?? .distantFuture) {
                        next = edge
                    }
                }
            }
        }
        return Evaluation(name: best?.name, reason: .schedule, endsAt: best?.window.end, windowStart: best?.window.start, nextChange: next)
    }

    // MARK: Changes

    /// Brings ``current`` up to `now` when a change by itself is due; the change, if any.
    mutating func advance(to now: Date, zone: ZoneRules, activations: inout UInt64) -> Change? {
        guard isDue(at: now) else { return nil }
        return reevaluate(at: now, zone: zone, activations: &activations, cause: nil)
    }

    /// Turns `name` (defined) on by hand, or every Focus off (nil), here or on the host
    /// `origin`. The Focus already on continues its activation, however it was on; any
    /// other is a new activation. A change is reported whenever a Focus is on after it, for
    /// the journal.
    mutating func choose(
        _ name: String?, until: Date?, origin: FocusOrigin? = nil, at now: Date, zone: ZoneRules, activations: inout UInt64
    ) -> Change? {
        let endsAt = until ?? scheduled(at: now, zone: zone).nextChange
        manual = ManualChoice(name: name, until: until, endsAt: endsAt, origin: origin)
        for index in holds.indices { holds[index].overridden = true }
        let rule: ActivationRule = name != nil && current?.name == name ? .continuing : .fresh
        var change = reevaluate(at: now, zone: zone, activations: &activations, cause: .manual, activation: rule)
        change?.origin = origin
        return change
    }

    /// Takes `hold` of a defined Focus: it is on from now, continuing its activation if it
    /// is on already.
    mutating func hold(_ hold: FocusHold, at now: Date, zone: ZoneRules, activations: inout UInt64) -> Change? {
        holds.append(hold)
        return reevaluate(at: now, zone: zone, activations: &activations, cause: .held, activation: .sameFocus)
    }

    /// Ends the hold `id`; nil when there is none. When it decided the Focus in effect,
    /// the hold before it, the choice by hand or the schedules decide again: the held
    /// Focus ends as turned off (its digest), unless what decides now has it on too.
    mutating func release(_ id: String, at now: Date, zone: ZoneRules, activations: inout UInt64) -> Change?? {
        guard let index = holds.firstIndex(where: { $0.id == id }) else { return nil }
        let released = holds.remove(at: index)
        guard !released.overridden else { return .some(nil) }
        return .some(reevaluate(at: now, zone: zone, activations: &activations, cause: .released, activation: .sameFocus))
    }

    /// Whether the Focus in effect after a change is the activation that was on.
    private enum ActivationRule {
        /// The same Focus in the same schedule window (or both by hand) continues.
        case byWindow
        /// The same Focus continues, whatever turned it on (a choice by hand of the Focus on).
        case continuing
        /// Always a new activation.
        case fresh
        /// The same Focus continues, and only a change of Focus is reported (a hold taken
        /// or ended).
        case sameFocus
    }

    /// Defines or replaces `definition`; a Focus that is on takes it at once.
    mutating func define(_ definition: Definition, at now: Date, zone: ZoneRules, activations: inout UInt64) -> Change? {
        definitions[definition.configuration.name] = definition
        return schedulesChanged(at: now, zone: zone, activations: &activations)
    }

    /// Forgets the Focus `name`; nil when there is none. If it was on, it goes off.
    mutating func delete(_ name: String, at now: Date, zone: ZoneRules, activations: inout UInt64) -> Change?? {
        guard definitions.removeValue(forKey: name) != nil else { return nil }
        if manual?.name == name { manual = nil }
        for index in holds.indices where holds[index].name == name { holds[index].overridden = true }
        return .some(schedulesChanged(at: now, zone: zone, activations: &activations, cause: .deleted))
    }

    /// After the schedules changed, a choice by hand without `until` lasts until the
    /// next start or end of the new schedules.
    private mutating func schedulesChanged(
        at now: Date, zone: ZoneRules, activations: inout UInt64, cause: Change.Cause? = nil
    ) -> Change? {
        if let held = manual, held.until == nil {
            let endsAt = scheduled(at: now, zone: zone).nextChange
            manual?.endsAt = endsAt
            if held.name.map({ definitions[$0] == nil }) ?? false { manual = nil }
        }
        return reevaluate(at: now, zone: zone, activations: &activations, cause: cause)
    }

    /// Sets ``current`` to what is in effect at `now`; the change when another Focus (or
    /// none, or a new activation) is now in effect, or the Focus on was set again by hand.
    private mutating func reevaluate(
        at now: Date, zone: ZoneRules, activations: inout UInt64, cause: Change.Cause?, activation rule: ActivationRule = .byWindow
    ) -> Change? {
        if let ends = manual?.endsAt, now >= ends { manual = nil }
        let evaluation = evaluate(at: now, zone: zone)
        nextChange = evaluation.nextChange
        let before = current
        if let name = evaluation.name, let definition = definitions[name] {
            let same =
                switch rule {
                case .byWindow: before?.name == name && before?.windowStart == evaluation.windowStart
                case .continuing, .sameFocus: before?.name == name
                case .fresh: false
                }
            let activation: UInt64
            if same, let before {
                activation = before.activation
            } else {
                activations += 1
                activation = activations
            }
            current = Active(name: name, reason: evaluation.reason, endsAt: evaluation.endsAt, activation: activation, windowStart: evaluation.windowStart)
            allowedPeopleKeys = Set(definition.configuration.allowedPeople.flatMap(PersonIdentity.keys(of:)))
            silencedPeopleKeys = Set((definition.configuration.silencedPeople ?? []).flatMap(PersonIdentity.keys(of:)))
        } else {
            current = nil
            allowedPeopleKeys = []
            silencedPeopleKeys = []
        }
        let edited = rule == .continuing && current != nil
        guard edited || before?.name != current?.name || before?.activation != current?.activation else { return nil }
        let shown = current.flatMap { definitions[$0.name] } ?? before.flatMap { definitions[$0.name] }
        // A held Focus that gave way by itself (restored from a snapshot) was released.
        let unheld = before?.reason == .held && current?.reason != .held
        let cameAbout: Change.Cause = unheld ? .released : current == nil ? .ended : (current!.reason == .schedule ? .schedule : .manual)
        return Change(
            name: current?.name ?? before?.name ?? "",
            isOn: current != nil,
            previous: current != nil && before?.name != current?.name ? before?.name : nil,
            cause: cause ?? cameAbout,
            reason: current?.reason,
            endsAt: current?.endsAt,
            allowedPeople: current == nil ? 0 : shown?.configuration.allowedPeople.count ?? 0,
            allowedApps: current == nil ? 0 : shown?.configuration.allowedApps.count ?? 0,
            at: now
        )
    }

    /// A change of the Focus in effect, for the journal: its name, on or off, why, and how
    /// many people and apps it allows — never who.
    struct Change: Sendable, Hashable {
        enum Cause: String, Sendable {
            /// Turned on or off by hand.
            case manual
            /// A schedule window started.
            case schedule
            /// Its `until` passed or its schedule window ended.
            case ended
            /// Its definition was deleted.
            case deleted
            /// A hold (`hold-focus`) turned it on.
            case held
            /// Its last hold ended (or the heraldd that held it stopped).
            case released
        }

        /// The Focus on now, or the one that went off.
        var name: String
        var isOn: Bool
        /// The Focus that was on before, when another one is on now.
        var previous: String?
        var cause: Cause
        var reason: FocusReason?
        var endsAt: Date?
        var allowedPeople: Int
        var allowedApps: Int
        var at: Date
        /// The other host a change by hand was made on (herald-sync's `set-focus`).
        var origin: FocusOrigin?
    }

    /// A uid's Focuses as a snapshot restores them.
    init(definitions: [Definition], manual: ManualChoice?, current: Active?, nextChange: Date?) {
        for definition in definitions {
            self.definitions[definition.configuration.name] = definition
        }
        self.manual = manual
        self.current = current
        // A Focus a hold kept on: its connection is gone, so it ends as released at once.
        self.nextChange = current?.reason == .held ? .distantPast : nextChange
        if let current, let definition = self.definitions[current.name] {
            allowedPeopleKeys = Set(definition.configuration.allowedPeople.flatMap(PersonIdentity.keys(of:)))
            silencedPeopleKeys = Set((definition.configuration.silencedPeople ?? []).flatMap(PersonIdentity.keys(of:)))
        }
    }
}
