import FoundationEssentials
import HeraldProtocol

/// Each uid's named Focuses: `set-focus`, `define-focus`, `delete-focus`, `get-focus`.
///
/// A caller acts on its own uid; an administrator may name any `uid` (anyone else naming
/// another uid is refused, as for the notification list).
extension HeraldState {
    /// `set-focus`: defines `focus` and turns it on by hand, turns on the Focus defined as
    /// `name`, or — with neither — turns every Focus off by hand. Setting the Focus already
    /// on continues its activation (its digest and notify-anyway marks go on); turning on
    /// another is a new one. Returns the Focus now in effect.
    ///
    /// `focus` is a partial update of the Focus of its name: a member it leaves out keeps
    /// that setting (its schedules too), or takes the default for a Focus not defined yet.
    package mutating func setFocus(
        _ p: SetFocusParams, caller: Caller, now: Date, budget: PageBudget<FocusConfiguration> = .unbounded
    ) throws(RuleError)
        -> MethodOutcome<SetFocusResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        let zone = self.zone
        let origin = p.origin
        if let origin { try Self.checkOrigin(origin) }
        if let name = p.name {
            guard p.focus == nil else {
                throw .invalidParams("Give focus (to define a Focus and turn it on) or name (to turn on one defined already), not both.", at: ["name"])
            }
            guard focuses[uid].definitions[name] != nil else {
                throw .invalidParams("This uid has no Focus named \(name); define it with define-focus, or give focus.", at: ["name"])
            }
            try Self.checkUntil(p.until, now: now, at: ["until"])
            focuses.update(uid) { state, activations in
                ((), state.choose(name, until: p.until, origin: origin, at: now, zone: zone, activations: &activations))
            }
        } else if let update = p.focus {
            let configuration = update.applied(to: focuses[uid].definitions[update.name]?.configuration)
            guard p.until == nil else {
                throw .invalidParams("With focus, until goes inside it (focus.until).", at: ["until"])
            }
            let definition = try focusDefinition(configuration, uid: uid, at: ["focus"], budget: budget)
            try Self.checkUntil(configuration.until, now: now, at: ["focus", "until"])
            focuses.update(uid) { state, activations in
                _ = state.define(definition, at: now, zone: zone, activations: &activations)
                return ((), state.choose(configuration.name, until: configuration.until, origin: origin, at: now, zone: zone, activations: &activations))
            }
        } else {
            guard p.until == nil else {
                throw .invalidParams("until belongs to a Focus turned on; focus: null turns the Focus off.", at: ["until"])
            }
            focuses.update(uid) { state, activations in
                ((), state.choose(nil, until: nil, origin: origin, at: now, zone: zone, activations: &activations))
            }
        }
        return MethodOutcome(result: SetFocusResult(focus: focuses[uid].currentConfiguration), audit: AuditRecord())
    }

    /// `define-focus`: defines or replaces a named Focus without turning it on by hand.
    package mutating func defineFocus(
        _ p: DefineFocusParams, caller: Caller, now: Date, budget: PageBudget<FocusConfiguration> = .unbounded
    ) throws(RuleError)
        -> MethodOutcome<GetFocusResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        guard p.focus.until == nil else {
            throw .invalidParams("until belongs to turning a Focus on (set-focus), not to its definition.", at: ["focus", "until"])
        }
        let definition = try focusDefinition(p.focus, uid: uid, at: ["focus"], budget: budget)
        let zone = self.zone
        focuses.update(uid) { state, activations in
            ((), state.define(definition, at: now, zone: zone, activations: &activations))
        }
        return MethodOutcome(result: focusReadBack(uid: uid, now: now, budget: budget), audit: AuditRecord())
    }

    /// `delete-focus`: forgets a named Focus; if it is on, it goes off.
    package mutating func deleteFocus(
        _ p: DeleteFocusParams, caller: Caller, now: Date, budget: PageBudget<FocusConfiguration> = .unbounded
    ) throws(RuleError)
        -> MethodOutcome<GetFocusResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        let zone = self.zone
        let found = focuses.update(uid) { state, activations in
            let change = state.delete(p.name, at: now, zone: zone, activations: &activations)
            return (change != nil, change ?? nil)
        }
        guard found else {
            throw .invalidParams("This uid has no Focus named \(p.name).", at: ["name"])
        }
        return MethodOutcome(result: focusReadBack(uid: uid, now: now, budget: budget), audit: AuditRecord())
    }

    /// `get-focus`: the uid's definitions — one page of them, after `cursor`, within
    /// `budget` — the Focus on and why, the next change, and the schedule a choice by hand
    /// overrides now, if any.
    package func getFocus(
        _ p: GetFocusParams, caller: Caller, now: Date, budget: PageBudget<FocusConfiguration> = .unbounded
    ) throws(RuleError) -> MethodOutcome<GetFocusResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        return MethodOutcome(result: focusReadBack(uid: uid, now: now, after: p.cursor, budget: budget), audit: AuditRecord())
    }

    /// What `get-focus` answers for `uid` at `now`: the definitions named after `cursor`
    /// that fit `budget`; evaluated afresh when a change is due that has not been made yet.
    func focusReadBack(
        uid: UInt32, now: Date, after cursor: String? = nil, budget: PageBudget<FocusConfiguration> = .unbounded
    ) -> GetFocusResult {
        let state = focuses[uid]
        let (active, nextChange) = activeFocus(uid: uid, now: now)
        var override: FocusOverride?
        if let manual = state.manual, manual.endsAt.map({ now < $0 }) ?? true,
            let scheduled = state.scheduled(at: now, zone: zone).name, scheduled != manual.name
        {
            override = FocusOverride(scheduledFocus: scheduled, endsAt: manual.endsAt)
        }
        let definitions = state.sortedDefinitions.lazy.filter { definition in cursor.map { definition.configuration.name > $0 } ?? true }
            .map { (place: $0.configuration.name, item: $0.wire) }
        let page = budget.page(definitions)
        return GetFocusResult(
            uid: uid, focuses: page.items, active: active, nextChange: nextChange, override: override, nextCursor: page.next,
            holds: state.holds.isEmpty ? nil : state.holds.map(\.wire), origin: state.origin(at: now))
    }

    /// `uid`'s definition of the Focus named `name` as `get-focus` shows it; nil: none.
    package func focusDefinition(uid: UInt32, name: String) -> FocusConfiguration? {
        focuses[uid].definitions[name]?.wire
    }

    /// `uid`'s Focus on at `now` and its next change by itself, without changing anything:
    /// evaluated afresh when a change is due that has not been made yet.
    func activeFocus(uid: UInt32, now: Date) -> (active: ActiveFocus?, nextChange: Date?) {
        let state = focuses[uid]
        guard state.isDue(at: now) else {
            return (state.current.map { ActiveFocus(name: $0.name, reason: $0.reason, endsAt: $0.endsAt) }, state.nextChange)
        }
        let evaluation = state.evaluate(at: now, zone: zone)
        return (evaluation.name.map { ActiveFocus(name: $0, reason: evaluation.reason, endsAt: evaluation.endsAt) }, evaluation.nextChange)
    }

    /// Brings `uid`'s Focus up to `now` when a change by itself is due (cheap otherwise).
    /// Each method that reads a uid's Focus calls this first.
    mutating func advanceFocus(uid: UInt32, now: Date) {
        guard focuses.isDue(uid, at: now) else { return }
        focuses.advance(uid, to: now, zone: zone)
    }

    /// `isFocused` for `app` of `uid`, after ``advanceFocus(uid:now:)``: a Focus is on and
    /// the app is not allowed by it, or silenced by it.
    func isFocused(uid: UInt32, app: String) -> Bool {
        focuses[uid].currentConfiguration.map { $0.focuses(app: app) } ?? false
    }

    /// Checks a Focus of the wire and makes its definition; a configuration without
    /// `schedules` keeps those `uid`'s Focus of that name has.
    ///
    /// A Focus must fit one page of `get-focus` (`budget`), so that every page holds whole
    /// Focuses: set-focus's partial updates could otherwise grow one past any response.
    private func focusDefinition(
        _ configuration: FocusConfiguration, uid: UInt32, at path: MemberPath, budget: PageBudget<FocusConfiguration>
    ) throws(RuleError) -> FocusState.Definition {
        guard !configuration.name.isEmpty else {
            throw .invalidParams("A Focus needs a name, such as Work or Sleep.", at: path.appending("name"))
        }
        for (index, person) in configuration.allowedPeople.enumerated() {
            try PersonRules.validateAllowed(person, at: path.appending("allowedPeople").appending(index))
        }
        for (index, app) in configuration.allowedApps.enumerated() {
            try AppName.validate(app, at: path.appending("allowedApps").appending(index))
        }
        for (index, person) in (configuration.silencedPeople ?? []).enumerated() {
            try PersonRules.validateAllowed(person, at: path.appending("silencedPeople").appending(index))
        }
        for (index, app) in (configuration.silencedApps ?? []).enumerated() {
            try AppName.validate(app, at: path.appending("silencedApps").appending(index))
        }
        if configuration.silencesNamed, !configuration.allowedPeople.isEmpty || !configuration.allowedApps.isEmpty {
            throw .invalidParams(
                "A Focus either allows the people and apps it names or silences them, not both: empty allowedPeople and allowedApps ([]) to silence, or silencedPeople and silencedApps to allow.",
                at: path.appending(configuration.silencedApps != nil ? "silencedApps" : "silencedPeople"))
        }
        let existing = focuses[uid].definitions
        if existing[configuration.name] == nil, existing.count >= FocusState.maxFocuses {
            throw .invalidParams("A uid may define at most \(FocusState.maxFocuses) Focuses; delete one first (delete-focus).", at: path.appending("name"))
        }
        var rules: [FocusScheduleRule] = []
        if let schedules = configuration.schedules {
            guard schedules.count <= FocusState.maxSchedules else {
                throw .invalidParams("A Focus has at most \(FocusState.maxSchedules) schedules.", at: path.appending("schedules"))
            }
            for (index, schedule) in schedules.enumerated() {
                rules.append(try FocusScheduleRule(schedule, at: path.appending("schedules").appending(index)))
            }
            let others = existing.values.filter { $0.configuration.name != configuration.name }.reduce(0) { $0 + $1.schedules.count }
            guard others + rules.count <= FocusState.maxSchedulesPerUID else {
                throw .invalidParams(
                    "A uid has at most \(FocusState.maxSchedulesPerUID) schedules in all its Focuses; it has \(others) in others.",
                    at: path.appending("schedules"))
            }
        } else {
            rules = existing[configuration.name]?.schedules ?? []
        }
        var stored = configuration
        stored.until = nil
        stored.schedules = nil
        let definition = FocusState.Definition(configuration: stored, schedules: rules)
        let bytes = budget.size(definition.wire)
        guard bytes <= budget.maxBytes else {
            throw .invalidParams(
                "This Focus would take \(bytes) bytes, more than the \(budget.maxBytes) a Focus may (a page of get-focus, by --max-response-bytes); allow fewer people or apps.",
                at: path)
        }
        return definition
    }

    /// A host's name as herald-sync gives it: 1 to 255 bytes, no control characters (it is
    /// shown to the person and journaled).
    private static func checkOrigin(_ origin: FocusOrigin) throws(RuleError) {
        let bytes = origin.host.utf8.count
        guard bytes > 0, bytes <= FocusOrigin.maxHostBytes, !origin.host.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidParams(
                "origin.host names the host the choice was made on: 1 to \(FocusOrigin.maxHostBytes) bytes of UTF-8, without control characters.",
                at: ["origin", "host"])
        }
    }

    private static func checkUntil(_ until: Date?, now: Date, at path: MemberPath) throws(RuleError) {
        if let until, until <= now {
            throw .invalidParams("until must be in the future; to turn the Focus off, send focus: null.", at: path)
        }
    }
}
