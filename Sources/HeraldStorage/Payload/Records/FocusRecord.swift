import HeraldCore
import HeraldProtocol

/// A Focus's definition as the snapshot keeps it: who and what it allows or silences, its
/// end, its schedules.
enum FocusRecord {
    static func json(_ focus: FocusConfiguration, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 10)
        members.add("allowMentions", focus.allowMentions)
        members.add("allowRepeatedCalls", focus.allowRepeatedCalls)
        members.add("allowTimeSensitive", focus.allowTimeSensitive)
        members.add("allowedApps", focus.allowedApps)
        members.add("allowedPeople", focus.allowedPeople, PersonRecord.json)
        members.add("name", focus.name)
        members.add("schedules", focus.schedules) { schedule, style in
            var members = RecordMembers(style, capacity: 3)
            members.add("days", schedule.days)
            members.add("end", schedule.end)
            members.add("start", schedule.start)
            return members.value
        }
        members.add("silencedApps", focus.silencedApps)
        members.add("silencedPeople", focus.silencedPeople, PersonRecord.json)
        members.add("until", focus.until)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> FocusConfiguration {
        FocusConfiguration(
            name: try record.string("name"),
            allowedPeople: try record.records("allowedPeople", PersonRecord.read),
            allowedApps: try record.strings("allowedApps"),
            silencedPeople: try record.optionalRecords("silencedPeople", PersonRecord.read),
            silencedApps: try record.optionalStrings("silencedApps"),
            allowTimeSensitive: try record.bool("allowTimeSensitive"),
            allowRepeatedCalls: try record.bool("allowRepeatedCalls"),
            allowMentions: try record.bool("allowMentions"),
            until: try record.optionalDate("until"),
            schedules: try record.optionalRecords("schedules") { schedule throws(RecordDamage) in
                FocusSchedule(days: try schedule.optionalStrings("days"), start: try schedule.string("start"), end: try schedule.string("end"))
            }
        )
    }
}
