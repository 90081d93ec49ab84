import FoundationEssentials
import HeraldProtocol
import HeraldSync

/// The person's Focus in effect: what is published of the changes made here, and how
/// another host's change is applied.
extension SyncLoop {
    /// An answer of `get-focus`: the first sets the baseline and starts the broker; a later
    /// one that differs from the Focus in effect is published when it is a change of this
    /// host's person, not one heraldd made by itself.
    func focusRead(_ result: JSONObject) throws {
        let active = result["active"]?.objectValue
        let reason = active?["reason"]?.stringValue
        let state = FocusState(
            focus: active?["name"]?.stringValue,
            until: reason == "until" ? active?["endsAt"]?.stringValue.flatMap(RFC3339.parse) : nil
        )
        let before = (reason: currentReason, nextChange: nextChange)
        currentReason = reason
        nextChange = result["nextChange"]?.stringValue.flatMap(RFC3339.parse)
        guard let known = current else {
            current = state
            if !brokerStarted {
                brokerStarted = true
                let failure = try broker.start(host: configuration.brokerHost, port: configuration.brokerPort)
                SyncLog.info(
                    "connecting to \(configuration.brokerHost):\(configuration.brokerPort) as host \(configuration.hostName), topics \(configuration.accountTopics)"
                )
                if let failure { brokerFailing(failure) }
            }
            return
        }
        guard state != known else { return }
        current = state
        if let why = Self.unpublished(
            state, reason: reason, known: known, before: before, overridden: result["override"] != nil,
            definitionGone: known.focus.map { definitions[$0]?.focus == nil } ?? false)
        {
            SyncLog.info("not publishing Focus \(state.focus ?? "off"): \(why)")
            return
        }
        let change = FocusMessage(
            focus: state.focus, until: state.until, cause: reason, account: configuration.account, host: configuration.hostName,
            time: clock.tick(now: Self.now())
        )
        currentTime = change.time
        currentHost = change.host
        publish(change)
    }

    /// Why a change of the Focus in effect here is not published, or nil when it is.
    ///
    /// Each host evaluates the person's schedules, which travel with the definitions, on
    /// its own clock and time zone, and ends a Focus at its `until` by itself: so a Focus a
    /// schedule turned on, and an end that came by time, travel not. Nor does a Focus that
    /// went off because its definition was deleted: the deletion travels, and ends it on
    /// every host. A change by hand (on, or off while a schedule is open: `overridden`)
    /// travels, and so beats the schedule everywhere.
    static func unpublished(
        _ state: FocusState, reason: String?, known: FocusState, before: (reason: String?, nextChange: Date?), overridden: Bool,
        definitionGone: Bool
    ) -> String? {
        if reason == "schedule" { return "a schedule turned it on, and each host runs the schedules itself" }
        guard state == .off else { return nil }
        if let due = before.nextChange, due <= Date() { return "it ended by time, as on every host" }
        if before.reason == "schedule", !overridden { return "its schedule ended it, as on every host" }
        if definitionGone { return "its definition was deleted, which every host is told" }
        return nil
    }

    func publish(_ change: FocusMessage, again: Bool = false) {
        lastPublished = change
        do {
            try broker.publish(change.encoded(), topic: configuration.focusTopic)
            unpublished = nil
            SyncLog.info("published \(again ? "again " : "")this host's change: Focus \(change.focus ?? "off")")
            noteSent(on: configuration.focusTopic, "Focus \(change.focus ?? "off")")
        } catch {
            unpublished = change
            SyncLog.info("kept this host's change for when the broker is back: \(error)")
        }
    }

    /// A message on the Focus topic: refused (and logged) unless well formed, of this
    /// account, from another host and newer than the change in effect.
    func receivedFocus(_ payload: [UInt8], on topic: String) throws {
        guard let change = accepted(on: topic, { try FocusMessage.read(payload) }) else { return }
        clock.witness(change.time, now: Self.now())
        guard change.host != configuration.hostName else { return }
        // The change in effect again (the broker's retained copy, after a reconnection).
        if change.time == currentTime, change.host == currentHost { return }
        guard change.isNewer(than: currentTime, host: currentHost) else {
            refuse(on: topic, "\(change.host)'s change is not newer than the one in effect")
            // The broker's retained copy may now be that older one: the host whose change
            // is in effect publishes it again, the same.
            if let published = lastPublished, published.time == currentTime, published.host == currentHost {
                publish(published, again: true)
            }
            return
        }
        noteReceived(on: topic, "\(change.host)'s Focus \(change.focus ?? "off")")
        var state = change.state
        var params: JSONObject = ["focus": .null]
        var defining: String?
        if let name = state.focus {
            if let until = state.until, until <= Date() {
                state = .off
            } else if definitions[name]?.focus != nil {
                // Turned on as this host defines it: the definitions travel on their own.
                params = ["name": .string(name)]
                if let until = state.until { params["until"] = .string(RFC3339.format(until)) }
            } else {
                // No definition of it here (yet): set-focus defines it with the defaults, a
                // definition that is not published, so that the person's own wins when it comes.
                var focus: JSONObject = ["name": .string(name)]
                if let until = state.until { focus["until"] = .string(RFC3339.format(until)) }
                params = ["focus": .object(focus)]
                defining = name
                defaultDefinitions[name, default: 0] += 1
            }
        }
        // Said to heraldd as a choice made on that host, so that get-focus and the journal
        // here name it.
        var origin: JSONObject = ["host": .string(change.host)]
        if state.focus != nil, let cause = change.cause, FocusReason(rawValue: cause) != nil { origin["reason"] = .string(cause) }
        params["origin"] = .object(origin)
        // The change in effect from now: a later message must be newer than this one,
        // even before heraldd has answered.
        currentTime = change.time
        currentHost = change.host
        try send("set-focus", params, .apply(change, state, defining: defining))
    }

    /// heraldd's answer to `set-focus` of another host's change.
    func focusApplied(_ change: FocusMessage, _ applied: FocusState) throws {
        SyncLog.info("applied \(change.host)'s change: Focus \(change.focus ?? "off")")
        guard currentTime == change.time, currentHost == change.host else {
            // A change made here was published while this one was on its way, and
            // set-focus then replaced it: read again, and publish what is on now, so
            // that every host ends with the same Focus.
            try readFocus()
            return
        }
        current = applied
        currentReason = applied.focus == nil ? nil : (applied.until == nil ? "manual" : "until")
    }
}
