import FoundationEssentials
import HeraldProtocol
import HeraldSync

/// The person's Focus definitions: each travels on a topic of its own, retained, the last
/// writer winning per definition; a deletion travels as a tombstone (`focus: null`).
extension SyncLoop {
    /// `focus-defined`: a definition made, replaced or deleted here. Published when it
    /// differs from the one in effect, unless herald-sync's own request caused it.
    func definitionChanged(_ name: String, _ focus: JSONObject?) {
        let focus = focus.map(Self.sorted)
        let known = definitions[name] ?? .unknown
        // Another host's definition, applied here: still that host's change.
        if expectedDefinitions[name]?.contains(focus) == true {
            expectDefinition(name, nil, done: focus)
            return
        }
        // A Focus set-focus defined with the defaults for another host's Focus: older than
        // any definition of the person's, which wins when it comes.
        if defaultDefinitions[name, default: 0] > 0, known.focus == nil {
            definitions[name] = Definition(focus: focus, time: .zero, host: "")
            return
        }
        guard focus != known.focus else { return }
        let change = DefinitionMessage(
            name: name, focus: focus, account: configuration.account, host: configuration.hostName, time: clock.tick(now: Self.now()))
        definitions[name] = Definition(focus: focus, time: change.time, host: change.host)
        // Before the broker is reached, it goes out once it is.
        guard brokerStarted else {
            unpublishedDefinitions[name] = change
            return
        }
        publish(change)
    }

    func publish(_ change: DefinitionMessage, again: Bool = false) {
        let topic = configuration.definitionTopic(DefinitionMessage.topicLevel(change.name))
        do {
            try broker.publish(change.encoded(), topic: topic)
            unpublishedDefinitions[change.name] = nil
            SyncLog.info("published \(again ? "again " : "")this host's \(change.focus == nil ? "deletion" : "definition") of \(change.name)")
            noteSent(on: topic, "\(change.focus == nil ? "deletion" : "definition") of \(change.name)")
        } catch {
            unpublishedDefinitions[change.name] = change
            SyncLog.info("kept this host's definition of \(change.name) for when the broker is back: \(error)")
        }
    }

    /// A message on a definition's topic: refused (and logged) unless well formed, of this
    /// account, on its own topic, from another host and newer than the definition in
    /// effect; then applied with `define-focus`, or `delete-focus` for a tombstone.
    func receivedDefinition(_ payload: [UInt8], on topic: String) throws {
        guard let change = accepted(on: topic, { try DefinitionMessage.read(payload) }) else { return }
        guard topic == configuration.definitionTopic(DefinitionMessage.topicLevel(change.name)) else {
            refuse(on: topic, "it defines \(change.name), whose topic is another")
            return
        }
        clock.witness(change.time, now: Self.now())
        guard change.host != configuration.hostName else { return }
        let known = definitions[change.name] ?? .unknown
        if change.time == known.time, change.host == known.host { return }
        guard change.isNewer(than: known.time, host: known.host) else {
            refuse(on: topic, "\(change.host)'s definition of \(change.name) is not newer than the one in effect")
            // The broker's retained copy may now be that older one (two changes crossed on
            // their way): the host whose change is in effect publishes it again, the same.
            if known.host == configuration.hostName {
                publish(DefinitionMessage(name: change.name, focus: known.focus, account: configuration.account, host: known.host, time: known.time), again: true)
            }
            return
        }
        let focus = change.focus.map(Self.sorted)
        definitions[change.name] = Definition(focus: focus, time: change.time, host: change.host)
        noteReceived(on: topic, "\(change.host)'s \(focus == nil ? "deletion" : "definition") of \(change.name)")
        if focus != nil || known.focus != nil { try apply(change.name, focus, for: change) }
    }

    /// Sends heraldd `focus` as the definition of `name` (nil: deletes it), expecting the
    /// `focus-defined` it causes.
    private func apply(_ name: String, _ focus: JSONObject?, for change: DefinitionMessage) throws {
        expectedDefinitions[name, default: []].append(focus)
        if var focus {
            // A definition without schedules has none: define-focus would keep this host's.
            if focus["schedules"] == nil { focus["schedules"] = .array([]) }
            try send("define-focus", ["focus": .object(focus)], .applyDefinition(change))
        } else {
            try send("delete-focus", ["name": .string(name)], .applyDefinition(change))
        }
    }

    /// Adds (`expect`) or takes away (`done`) a definition expected from heraldd.
    func expectDefinition(_ name: String, _ expect: JSONObject??, done: JSONObject?) {
        var expected = expectedDefinitions[name] ?? []
        if let index = expected.firstIndex(of: done) { expected.remove(at: index) }
        if let expect { expected.append(expect) }
        expectedDefinitions[name] = expected.isEmpty ? nil : expected
    }

    /// heraldd's answer to `define-focus` or `delete-focus` of another host's change. (A
    /// deletion that turned the Focus off here is not published: see ``unpublished``.)
    ///
    /// When the person changed that definition here while it was on its way, their change
    /// was published, and is the one in effect: heraldd may hold the other host's, so this
    /// host's is applied again, and every host ends with the same definition.
    func definitionApplied(_ change: DefinitionMessage) throws {
        // Its focus-defined came before this answer; an expectation left is one heraldd
        // wrote otherwise, not to wait for.
        expectDefinition(change.name, nil, done: change.focus.map(Self.sorted))
        SyncLog.info("applied \(change.host)'s \(change.focus == nil ? "deletion" : "definition") of \(change.name)")
        guard let now = definitions[change.name], now.host == configuration.hostName, now.time > change.time else { return }
        SyncLog.info("applying this host's later definition of \(change.name) again")
        try apply(change.name, now.focus, for: DefinitionMessage(
            name: change.name, focus: now.focus, account: configuration.account, host: now.host, time: now.time))
    }
}
