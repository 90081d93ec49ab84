/// An APNs-style push payload mapped onto ``NotificationContent``, so that a program
/// that already builds push payloads can send them to `update-content` as they are.
///
/// `aps.alert` is an object `{title, subtitle, body}` or a string (the body);
/// `interruption-level` (`time-sensitive` or `timeSensitive`), `relevance-score`,
/// `thread-id`, `category`, `sound`, `badge`, `target-content-id` and `filter-criteria`
/// map to their content members; every other top-level member goes to `userInfo`. As
/// with a Notification Service Extension, only a payload with `mutable-content: 1` and
/// some alert text may be changed: anything else is error 1008.
package enum APNsPayload {
    /// Maps `payload`; errors point below `pointer`, the payload's place in params.
    package static func content(
        from payload: JSONValue, at pointer: String = "/payload"
    ) throws(RPCError)
        -> NotificationContent
    {
        guard let document = payload.objectValue else {
            throw .invalidParams("payload must be an object, not \(payload.kindDescription).", at: pointer)
        }
        guard let apsValue = document["aps"] else {
            throw RPCError(
                .notMutable,
                reason: "The payload has no aps member, so no mutable-content: 1; only a mutable payload can be changed.",
                pointer: pointer
            )
        }
        guard let aps = apsValue.objectValue else {
            throw .invalidParams("aps must be an object, not \(apsValue.kindDescription).", at: "\(pointer)/aps")
        }
        let apsPointer = "\(pointer)/aps"
        guard let mutable = aps["mutable-content"], mutable.numberValue?.intValue == 1 else {
            throw RPCError(
                .notMutable,
                reason: "The payload needs \"mutable-content\": 1 to be changed, as a Notification Service Extension does.",
                pointer: "\(apsPointer)/mutable-content"
            )
        }

        var content = NotificationContent()
        switch aps["alert"] {
        case .string(let body)?:
            content.body = body
        case .object(let alert)?:
            content.title = try string(alert["title"], at: "\(apsPointer)/alert/title")
            content.subtitle = try string(alert["subtitle"], at: "\(apsPointer)/alert/subtitle")
            content.body = try string(alert["body"], at: "\(apsPointer)/alert/body")
        case nil, .null?:
            break
        case let other?:
            throw .invalidParams(
                "alert must be an object {title, subtitle, body} or a string, not \(other.kindDescription).",
                at: "\(apsPointer)/alert"
            )
        }
        let texts = [content.title, content.subtitle, content.body].compactMap { $0 }
        guard texts.contains(where: { !$0.isEmpty }) else {
            throw RPCError(
                .notMutable,
                reason: "The payload has no alert text (title, subtitle or body), so there is nothing to change.",
                pointer: "\(apsPointer)/alert"
            )
        }

        if let level = try string(aps["interruption-level"], at: "\(apsPointer)/interruption-level") {
            guard let parsed = interruptionLevel(level) else {
                throw .invalidParams(
                    "interruption-level must be passive, active, time-sensitive or critical, not \"\(level)\".",
                    at: "\(apsPointer)/interruption-level"
                )
            }
            content.interruptionLevel = parsed
        }
        if let score = aps["relevance-score"], !score.isNull {
            guard let value = score.numberValue?.doubleValue else {
                throw .invalidParams(
                    "relevance-score must be a number from 0 to 1, not \(score.kindDescription).",
                    at: "\(apsPointer)/relevance-score"
                )
            }
            content.relevanceScore = value
        }
        if let badge = aps["badge"], !badge.isNull {
            guard let value = badge.numberValue?.intValue else {
                throw .invalidParams("badge must be an integer.", at: "\(apsPointer)/badge")
            }
            content.badge = value
        }
        content.threadIdentifier = try string(aps["thread-id"], at: "\(apsPointer)/thread-id")
        content.categoryIdentifier = try string(aps["category"], at: "\(apsPointer)/category")
        content.targetContentIdentifier = try string(aps["target-content-id"], at: "\(apsPointer)/target-content-id")
        content.sound = aps["sound"].flatMap { $0.isNull ? nil : $0 }
        content.filterCriteria = aps["filter-criteria"].flatMap { $0.isNull ? nil : $0 }

        let others = document.members.filter { $0.key != "aps" }
        if !others.isEmpty {
            content.userInfo = .object(JSONObject(others))
        }
        return content
    }

    /// The level an `interruption-level` names: APNs spells it `time-sensitive`;
    /// Herald's camelCase `timeSensitive` is accepted too.
    static func interruptionLevel(_ name: String) -> InterruptionLevel? {
        name == "time-sensitive" ? .timeSensitive : InterruptionLevel(rawValue: name)
    }

    private static func string(_ value: JSONValue?, at pointer: String) throws(RPCError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?: return string
        case let other?: throw .invalidParams("Must be a string, not \(other.kindDescription).", at: pointer)
        }
    }
}
