/// When a Focus turns on by itself: on each of `days`, from `start` to `end`, local times
/// in the daemon's time zone. An `end` at or before `start` ends on the next day (a night
/// from 22:00 to 07:00 belongs to the day it starts on).
package struct FocusSchedule: Codable, Sendable, Hashable {
    /// `mon` … `sun`; absent: every day.
    package var days: [String]?
    /// `"HH:MM"` or `"HH:MM:SS"`.
    package var start: String
    /// `"HH:MM"` or `"HH:MM:SS"`.
    package var end: String

    package init(days: [String]? = nil, start: String, end: String) {
        self.days = days
        self.start = start
        self.end = end
    }
}

extension FocusSchedule: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            FocusSchedule(days: try members.optional("days"), start: try members.required("start"), end: try members.required("end"))
        }
    }
}
