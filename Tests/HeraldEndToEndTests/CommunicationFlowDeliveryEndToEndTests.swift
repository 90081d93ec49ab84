import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 3, end to end: each delivery decision and its reasons — interruption levels with
/// and without a Focus, allowed people and apps, repeated calls, notify-anyway, the summary.
@Suite("Communication flow: delivery decisions, end to end")
struct CommunicationFlowDeliveryEndToEndTests {
    static let app = "org.example.chat"
    static let work = #"{"focus":{"name":"Work"}}"#

    private func notify(_ client: UnixSocketClient, _ level: String?, app: String = app) throws -> JSONValue {
        var content: JSONObject = ["title": "Your taxi is here", "body": "Blue sedan"]
        if let level { content["interruptionLevel"] = .string(level) }
        return try client.call("update-content", ["app": .string(app), "content": .object(content)])
    }

    private func donateMessage(
        _ client: UnixSocketClient, _ identifier: String, sender: String, conversation: String = "c-1", metadata: String = ""
    ) throws {
        let meta = metadata.isEmpty ? "" : #","donationMetadata":\#(metadata)"#
        try client.result(
            "donate",
            [
                "app": .string(Self.app),
                "interaction": json(
                    #"{"identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","sender":\#(sender),"conversationIdentifier":"\#(conversation)"\#(meta)}}"#
                ),
            ]
        )
    }

    private func donateCall(_ client: UnixSocketClient, _ identifier: String, caller: String, date: String? = nil) throws {
        let dated = date.map { #""date":"\#($0)","# } ?? ""
        try client.result(
            "donate",
            [
                "app": .string(Self.app),
                "interaction": json(
                    #"{"identifier":"\#(identifier)",\#(dated)"direction":"incoming","intent":{"type":"startCall","contacts":[\#(caller)]}}"#
                ),
            ]
        )
    }

    private func update(_ client: UnixSocketClient, _ identifier: String, level: String? = nil) throws -> JSONValue {
        var content: JSONObject = ["body": "Hi"]
        if let level { content["interruptionLevel"] = .string(level) }
        return try client.call(
            "update-content",
            ["app": .string(Self.app), "interactionIdentifier": .string(identifier), "content": .object(content)]
        )
    }

    @Test("Each interruption level without a Focus")
    func levelsWithoutAFocus() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        // Several alerts of one app follow each other here: the burst cooldown is not what this tests.
        try client.result("set-cooldown", ["seconds": 0])
        let passive = try notify(client, "passive")
        #expect(describeDelivery(passive) == "quiet [passive]")
        // Without an interaction the content passes through unchanged.
        #expect(
            passive[pointer: "/result/content"] == json(#"{"title":"Your taxi is here","body":"Blue sedan","interruptionLevel":"passive"}"#)
        )
        #expect(describeDelivery(try notify(client, nil)) == "alert sound lightsScreen [delivered]")
        #expect(describeDelivery(try notify(client, "active")) == "alert sound lightsScreen [delivered]")
        #expect(describeDelivery(try notify(client, "timeSensitive")) == "alert sound lightsScreen announce [delivered]")
        let critical = try notify(client, "critical")
        #expect(describeError(critical) == "1005 /content/interruptionLevel")
        #expect(critical[pointer: "/error/message"] == "Capability required")
        let capabilities = try client.result("set-capabilities", ["app": .string(Self.app), "critical": true])
        #expect(capabilities == json(#"{"app":"org.example.chat","uid":0,"communication":true,"timeSensitive":true,"critical":true}"#))
        #expect(describeDelivery(try notify(client, "critical")) == "alert sound lightsScreen bypassesRinger [delivered]")
    }

    @Test("Each interruption level with a Focus on")
    func levelsWithAFocus() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let focus = try client.result("set-focus", json(Self.work))
        #expect(
            focus
                == json(
                    #"{"focus":{"name":"Work","allowedPeople":[],"allowedApps":[],"allowTimeSensitive":true,"allowRepeatedCalls":true,"allowMentions":false}}"#
                )
        )
        #expect(describeDelivery(try notify(client, "passive")) == "quiet [passive]")
        #expect(describeDelivery(try notify(client, "active")) == "quiet [silencedByFocus]")
        #expect(
            describeDelivery(try notify(client, "timeSensitive"))
                == "alert sound lightsScreen breaksThroughFocus announce [timeSensitiveAllowedByFocus, delivered]"
        )
        #expect(describeError(try notify(client, "critical")) == "1005 /content/interruptionLevel")
        try client.result("set-capabilities", ["app": .string(Self.app), "critical": true])
        #expect(
            describeDelivery(try notify(client, "critical"))
                == "alert sound lightsScreen breaksThroughFocus bypassesRinger [criticalBreaksThroughFocus, delivered]"
        )

        // A Focus that does not allow time-sensitive notifications silences them; critical still breaks through.
        try client.result("set-focus", json(#"{"focus":{"name":"Sleep","allowTimeSensitive":false}}"#))
        #expect(describeDelivery(try notify(client, "timeSensitive")) == "quiet [silencedByFocus]")
        #expect(
            describeDelivery(try notify(client, "critical"))
                == "alert sound lightsScreen breaksThroughFocus bypassesRinger [criticalBreaksThroughFocus, delivered]"
        )

        // Turned off: alerts again.
        #expect(try client.result("set-focus", ["focus": .null]) == json(#"{"focus":null}"#))
        #expect(describeDelivery(try notify(client, "active")) == "alert sound lightsScreen [delivered]")
    }

    @Test("A critical communication breaks through the Focus, bypasses the ringer and is announced")
    func criticalCommunication() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donateMessage(client, "m-1", sender: #"{"handle":{"value":"bo@example.org"},"displayName":"Bo"}"#)
        try client.result("set-focus", json(Self.work))
        #expect(describeDelivery(try update(client, "m-1")) == "quiet [silencedByFocus]")
        try client.result("set-capabilities", ["app": .string(Self.app), "critical": true])
        let critical = try update(client, "m-1", level: "critical")
        #expect(
            describeDelivery(critical)
                == "alert sound lightsScreen breaksThroughFocus bypassesRinger announce [criticalBreaksThroughFocus, delivered]"
        )
        #expect(critical[pointer: "/result/content/interruptionLevel"] == "critical")
    }

    @Test("timeSensitive without the capability is treated as active, with and without a Focus")
    func timeSensitiveWithoutTheCapability() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let capabilities = try client.result("set-capabilities", ["app": .string(Self.app), "timeSensitive": false])
        #expect(capabilities[pointer: "/timeSensitive"] == false)
        let alone = try notify(client, "timeSensitive")
        #expect(describeDelivery(alone) == "alert sound lightsScreen [timeSensitiveNotPermitted, delivered]")
        // interruptionLevel is never rewritten.
        #expect(alone[pointer: "/result/content/interruptionLevel"] == "timeSensitive")
        try client.result("set-focus", json(Self.work))
        #expect(describeDelivery(try notify(client, "timeSensitive")) == "quiet [timeSensitiveNotPermitted, silencedByFocus]")
        // Another app keeps the capability.
        #expect(
            describeDelivery(try notify(client, "timeSensitive", app: "org.example.taxi"))
                == "alert sound lightsScreen breaksThroughFocus announce [timeSensitiveAllowedByFocus, delivered]"
        )
    }

    @Test(
        "Allowed people break through by handle, alias, email case-insensitively, phone digits and identifiers",
        arguments: [
            (#"{"handle":{"value":"ann@EXAMPLE.org","type":"emailAddress"},"displayName":"Ann"}"#, true),
            (#"{"handle":{"value":"ann@example.org"},"displayName":"Ann"}"#, true),
            (#"{"handle":{"value":"15550100","type":"phoneNumber"}}"#, true),
            (#"{"handle":{"value":"+1-555-0100"}}"#, true),
            (#"{"handle":{"value":"5550100","type":"phoneNumber"}}"#, false),
            (
                #"{"handle":{"value":"eve.home@example.org","type":"emailAddress"},"aliases":[{"value":"EVE@work.example","type":"emailAddress"}]}"#,
                true
            ),
            (#"{"handle":{"value":"boss@example.org"},"contactIdentifier":"C-42"}"#, true),
            (#"{"handle":{"value":"bo@example.org"},"customIdentifier":"u-7"}"#, true),
            (#"{"displayName":"Ann"}"#, false),
            (#"{"handle":{"value":"cy@example.org","type":"emailAddress"},"displayName":"Cy"}"#, false),
        ]
    )
    func allowedPeople(sender: String, allowed: Bool) throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.result(
            "set-focus",
            json(
                #"{"focus":{"name":"Work","allowedPeople":[{"handle":{"value":"ANN@example.org","type":"emailAddress"}},{"handle":{"value":"+1 (555) 010-0","type":"phoneNumber"}},{"handle":{"value":"eve@work.example"}},{"displayName":"Boss","contactIdentifier":"C-42"},{"displayName":"Bo","customIdentifier":"u-7"}]}}"#
            )
        )
        try donateMessage(client, "m-1", sender: sender)
        try donateCall(client, "k-1", caller: sender)
        let expected =
            allowed
            ? "alert sound lightsScreen breaksThroughFocus announce [senderAllowedByFocus, delivered]"
            : "quiet [silencedByFocus]"
        #expect(describeDelivery(try update(client, "m-1")) == expected)
        #expect(describeDelivery(try update(client, "k-1")) == expected)
    }

    @Test("Allowed apps break through the Focus; other apps are silenced")
    func allowedApps() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.pager"]}}"#))
        #expect(
            describeDelivery(try notify(client, nil, app: "org.example.pager"))
                == "alert sound lightsScreen breaksThroughFocus [appAllowedByFocus, delivered]"
        )
        #expect(describeDelivery(try notify(client, nil)) == "quiet [silencedByFocus]")
        // An allowed app's communication is announced too.
        try client.call(
            "donate",
            [
                "app": "org.example.pager",
                "interaction": json(
                    #"{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Ops"},"conversationIdentifier":"ops"}}"#
                ),
            ]
        )
        let message = try client.call(
            "update-content", ["app": "org.example.pager", "interactionIdentifier": "m-1", "content": ["body": "Disk full"]]
        )
        #expect(describeDelivery(message) == "alert sound lightsScreen breaksThroughFocus announce [appAllowedByFocus, delivered]")
    }

    @Test("A repeated call inside the window breaks through the Focus; outside it is silenced")
    func repeatedCalls() throws {
        let herald = try HeraldProcess(arguments: ["--repeated-call-window", "60"])
        let client = try herald.connect()
        let dee = #"{"handle":{"value":"+15550100","type":"phoneNumber"},"displayName":"Dee"}"#
        let deeAgain = #"{"handle":{"value":"+1 555 0100","type":"phoneNumber"},"displayName":"D."}"#
        let cy = #"{"handle":{"value":"cy@example.org"},"displayName":"Cy"}"#
        try client.result("set-focus", json(Self.work))

        try donateCall(client, "k-1", caller: dee, date: "2026-11-21T10:00:00Z")
        #expect(describeDelivery(try update(client, "k-1")) == "quiet [silencedByFocus]")
        try donateCall(client, "k-2", caller: deeAgain, date: "2026-11-21T10:00:30Z")
        let inside = try update(client, "k-2")
        #expect(describeDelivery(inside) == "alert sound lightsScreen breaksThroughFocus announce [repeatedCall, delivered]")
        #expect(inside[pointer: "/result/delivery/reasons/0/message"]?.stringValue?.contains("60 seconds") == true)
        // Exactly at the window's edge still counts (inclusive), with an offset date.
        try donateCall(client, "k-3", caller: dee, date: "2026-11-21T11:01:30+01:00")
        #expect(
            describeDelivery(try update(client, "k-3")) == "alert sound lightsScreen breaksThroughFocus announce [repeatedCall, delivered]")

        // 120 s after the last call from the caller: outside the window.
        try donateCall(client, "k-4", caller: dee, date: "2026-11-21T10:03:30Z")
        #expect(describeDelivery(try update(client, "k-4")) == "quiet [silencedByFocus]")
        // Another caller within the window of Dee's call is not a repeated call.
        try donateCall(client, "k-5", caller: cy, date: "2026-11-21T10:03:40Z")
        #expect(describeDelivery(try update(client, "k-5")) == "quiet [silencedByFocus]")

        // A Focus that does not allow repeated calls silences even inside the window.
        try client.result("set-focus", json(#"{"focus":{"name":"Sleep","allowRepeatedCalls":false}}"#))
        #expect(describeDelivery(try update(client, "k-2")) == "quiet [silencedByFocus]")
    }

    @Test("Only an earlier incoming call of the same app counts as the first call; a group call counts by its first contact")
    func repeatedCallEdges() throws {
        let herald = try HeraldProcess(arguments: ["--repeated-call-window", "60"])
        let client = try herald.connect()
        let dee = #"{"handle":{"value":"+15550100","type":"phoneNumber"},"displayName":"Dee"}"#
        let ann = #"{"handle":{"value":"ann@example.org"},"displayName":"Ann"}"#
        try client.result("set-focus", json(Self.work))
        // A later call does not make an earlier one repeated.
        try donateCall(client, "late", caller: dee, date: "2026-11-21T10:00:30Z")
        try donateCall(client, "early", caller: dee, date: "2026-11-21T10:00:00Z")
        #expect(describeDelivery(try update(client, "early")) == "quiet [silencedByFocus]")
        #expect(
            describeDelivery(try update(client, "late")) == "alert sound lightsScreen breaksThroughFocus announce [repeatedCall, delivered]"
        )
        // An outgoing call to the caller does not count, nor another app's incoming call.
        try client.result(
            "donate",
            [
                "app": .string(Self.app),
                "interaction": json(
                    #"{"identifier":"out","date":"2026-11-21T11:00:00Z","direction":"outgoing","intent":{"type":"startCall","contacts":[\#(ann)]}}"#
                ),
            ]
        )
        try client.result(
            "donate",
            [
                "app": "org.example.phone",
                "interaction": json(
                    #"{"identifier":"other","date":"2026-11-21T11:00:10Z","direction":"incoming","intent":{"type":"startCall","contacts":[\#(ann)]}}"#
                ),
            ]
        )
        try donateCall(client, "ann-1", caller: ann, date: "2026-11-21T11:00:20Z")
        #expect(describeDelivery(try update(client, "ann-1")) == "quiet [silencedByFocus]")
        // A group call from Ann right after counts as repeated (first contact), and is a group.
        try client.result(
            "donate",
            [
                "app": .string(Self.app),
                "interaction": json(
                    #"{"identifier":"ann-g","date":"2026-11-21T11:00:40Z","direction":"incoming","intent":{"type":"startCall","contacts":[\#(ann),\#(dee)]}}"#
                ),
            ]
        )
        let group = try update(client, "ann-g")
        #expect(describeDelivery(group) == "alert sound lightsScreen breaksThroughFocus announce [repeatedCall, delivered]")
        #expect(group[pointer: "/result/content/subtitle"] == "With you & Dee")
        // Deleted calls stop counting.
        try client.result("delete-interactions", ["app": .string(Self.app), "identifiers": ["ann-1"]])
        #expect(describeDelivery(try update(client, "ann-g")) == "quiet [silencedByFocus]")
    }

    @Test("Repeated calls with the default 180 s window")
    func repeatedCallsDefaultWindow() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let dee = #"{"handle":{"value":"+15550100","type":"phoneNumber"},"displayName":"Dee"}"#
        try client.result("set-focus", json(Self.work))
        try donateCall(client, "k-1", caller: dee, date: "2026-11-21T10:00:00Z")
        try donateCall(client, "k-2", caller: dee, date: "2026-11-21T10:02:00Z")
        #expect(
            describeDelivery(try update(client, "k-2")) == "alert sound lightsScreen breaksThroughFocus announce [repeatedCall, delivered]")
        try donateCall(client, "k-3", caller: dee, date: "2026-11-21T10:05:01Z")
        #expect(describeDelivery(try update(client, "k-3")) == "quiet [silencedByFocus]")
    }

    @Test("notifyRecipientAnyway after a silenced message of the conversation breaks through")
    func notifyAnyway() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "allow"])
        let client = try herald.connect()
        let bo = #"{"handle":{"value":"+1 555 0101","type":"phoneNumber"},"nameComponents":{"givenName":"Bo","familyName":"Berg"}}"#
        let anyway = #"{"notifyRecipientAnyway":true}"#

        // Not authorized yet: 1004.
        let refused = try client.call(
            "donate",
            [
                "app": .string(Self.app),
                "interaction": json(
                    #"{"direction":"incoming","intent":{"type":"sendMessage","sender":\#(bo),"conversationIdentifier":"c-trip","donationMetadata":\#(anyway)}}"#
                ),
            ]
        )
        #expect(describeError(refused) == "1004 /interaction/intent/donationMetadata/notifyRecipientAnyway")
        #expect(refused[pointer: "/error/message"] == "Focus authorization required")

        let authorized = try client.result("request-focus", ["app": .string(Self.app), "requestAuthorization": true])
        #expect(authorized == json(#"{"authorizationStatus":"authorized","focusStatus":{"isFocused":false}}"#))
        try client.result("set-focus", json(Self.work))
        // Several alerts of one app follow each other here: the burst cooldown is not what this tests.
        try client.result("set-cooldown", ["seconds": 0])

        try donateMessage(client, "m-1", sender: bo, conversation: "c-trip")
        #expect(describeDelivery(try update(client, "m-1")) == "quiet [silencedByFocus]")
        try donateMessage(client, "m-2", sender: bo, conversation: "c-trip", metadata: anyway)
        let through = try update(client, "m-2")
        #expect(describeDelivery(through) == "alert sound lightsScreen breaksThroughFocus announce [notifiedAnyway, delivered]")
        // Another conversation was never silenced.
        try donateMessage(client, "m-3", sender: bo, conversation: "c-other", metadata: anyway)
        #expect(describeDelivery(try update(client, "m-3")) == "quiet [silencedByFocus]")
        // Setting the Focus on again continues it (issue 45); off and on again is a new
        // activation, which forgets the silenced conversations.
        try client.result("set-focus", json(Self.work))
        try client.result("set-focus", ["focus": .null])
        try client.result("set-focus", json(Self.work))
        #expect(describeDelivery(try update(client, "m-2")) == "quiet [silencedByFocus]")
        #expect(
            describeDelivery(try update(client, "m-2"))
                == "alert sound lightsScreen breaksThroughFocus announce [notifiedAnyway, delivered]")
    }

    @Test("Notify-anyway with authorization granted by an administrator (default prompt policy)")
    func notifyAnywayAfterAdministratorDecides() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let ann = #"{"handle":{"value":"ann@example.org"},"displayName":"Ann"}"#
        let granted = try client.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        #expect(granted == json(#"{"app":"org.example.chat","uid":0,"status":"authorized"}"#))
        try client.result("set-focus", json(Self.work))
        try donateMessage(client, "m-1", sender: ann, conversation: "c")
        #expect(describeDelivery(try update(client, "m-1")) == "quiet [silencedByFocus]")
        try donateMessage(client, "m-2", sender: ann, conversation: "c", metadata: #"{"notifyRecipientAnyway":true}"#)
        #expect(
            describeDelivery(try update(client, "m-2"))
                == "alert sound lightsScreen breaksThroughFocus announce [notifiedAnyway, delivered]")
    }

    @Test("Mentions break through a Focus that allows them")
    func mentions() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        // Several alerts of one app follow each other here: the burst cooldown is not what this tests.
        try client.result("set-cooldown", ["seconds": 0])
        let ann = #"{"handle":{"value":"ann@example.org"},"displayName":"Ann"}"#
        try donateMessage(client, "m-1", sender: ann, metadata: #"{"mentionsCurrentUser":true}"#)
        try donateMessage(client, "m-2", sender: ann, metadata: #"{"isReplyToCurrentUser":true}"#)
        try client.result("set-focus", json(Self.work))
        #expect(describeDelivery(try update(client, "m-1")) == "quiet [silencedByFocus]")
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowMentions":true}}"#))
        for identifier in ["m-1", "m-2"] {
            #expect(
                describeDelivery(try update(client, identifier))
                    == "alert sound lightsScreen breaksThroughFocus announce [mentionAllowedByFocus, delivered]"
            )
        }
    }

    @Test("The scheduled summary holds the app's everyday notifications until deliverAt; communication breaks through")
    func summary() throws {
        let herald = try HeraldProcess(environment: ["TZ": "UTC"])
        let client = try herald.connect()
        // A summary time two hours from now (UTC), so the next one is today or tomorrow at that minute.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let later = Date().addingTimeInterval(7200)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: later)
        let time = String(format: "%02d:%02d", parts.hour!, parts.minute!)
        let deliverAt = String(
            format: "%04d-%02d-%02dT%02d:%02d:00.000Z", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)

        let schedule = try client.result(
            "set-summary", ["apps": [.string(Self.app), "org.example.news"], "times": [.string(time), .string(time)]]
        )
        #expect(schedule == json(#"{"uid":0,"apps":["org.example.chat","org.example.news"],"times":["\#(time)"],"nextDelivery":"\#(deliverAt)"}"#))

        let held = try notify(client, nil)
        #expect(describeDelivery(held) == "summary deliverAt=\(deliverAt) [heldForSummary]")
        #expect(describeDelivery(try notify(client, "passive")) == "quiet [passive]")
        #expect(
            describeDelivery(try notify(client, "timeSensitive"))
                == "alert sound lightsScreen breaksThroughSummary announce [timeSensitiveBreaksThroughSummary, delivered]"
        )
        try client.result("set-capabilities", ["app": .string(Self.app), "critical": true])
        #expect(
            describeDelivery(try notify(client, "critical"))
                == "alert sound lightsScreen breaksThroughSummary bypassesRinger [criticalBreaksThroughSummary, delivered]"
        )
        try donateMessage(client, "m-1", sender: #"{"handle":{"value":"ann@example.org"},"displayName":"Ann"}"#)
        #expect(
            describeDelivery(try update(client, "m-1"))
                == "alert sound lightsScreen breaksThroughSummary announce [communicationBreaksThroughSummary, delivered]"
        )
        // An app not in the summary alerts.
        #expect(describeDelivery(try notify(client, nil, app: "org.example.taxi")) == "alert sound lightsScreen [delivered]")
        // An allowed app's notification breaks through the Focus and is still held.
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.chat"]}}"#))
        #expect(
            describeDelivery(try notify(client, nil))
                == "summary deliverAt=\(deliverAt) breaksThroughFocus [appAllowedByFocus, heldForSummary]")
        // Turned off.
        #expect(try client.result("set-summary", ["apps": [], "times": []]) == json(#"{"uid":0,"apps":[],"times":[]}"#))
        #expect(describeDelivery(try notify(client, nil)) == "alert sound lightsScreen breaksThroughFocus [appAllowedByFocus, delivered]")
    }
}
