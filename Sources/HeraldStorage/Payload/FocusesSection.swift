import Foundation
import HeraldCore
import HeraldProtocol

/// Each uid's Focuses: its named definitions (with their schedules), the choice made by
/// hand, the Focus in effect with its activation, and the count of activations.
enum FocusesSection: JSONSnapshotSection {
    static let name = "focuses"
    static let since: UInt32 = 4

    struct Form: Codable {
        struct Choice: Codable {
            var name: String?
            var until: Date?
            var endsAt: Date?
        }

        struct Current: Codable {
            var name: String
            var reason: FocusReason
            var endsAt: Date?
            var activation: UInt64
            var windowStart: Date?
        }

        struct UID: Codable {
            var uid: UInt32
            var definitions: [FocusConfiguration]
            var manual: Choice?
            var current: Current?
            var nextChange: Date?
        }

        var activations: UInt64
        var uids: [UID]
    }

    static func form(of state: HeraldState) -> Form {
        let stored = state.storedFocuses
        return Form(
            activations: stored.activations,
            uids: stored.uids.map { focus in
                Form.UID(
                    uid: focus.uid,
                    definitions: focus.definitions,
                    manual: focus.manual.map { Form.Choice(name: $0.name, until: $0.until, endsAt: $0.endsAt) },
                    current: focus.current.map {
                        Form.Current(name: $0.name, reason: $0.reason, endsAt: $0.endsAt, activation: $0.activation, windowStart: $0.windowStart)
                    },
                    nextChange: focus.nextChange
                )
            }
        )
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        let uids = form.uids.map { focus in
            HeraldState.StoredFocus(
                uid: focus.uid,
                definitions: focus.definitions,
                manual: focus.manual.map { .init(name: $0.name, until: $0.until, endsAt: $0.endsAt) },
                current: focus.current.map {
                    .init(name: $0.name, reason: $0.reason, endsAt: $0.endsAt, activation: $0.activation, windowStart: $0.windowStart)
                },
                nextChange: focus.nextChange
            )
        }
        guard state.restoreFocuses(activations: form.activations, uids: uids) else {
            throw damaged("lists a uid or a Focus twice, a schedule that is not one, or a Focus on that is not defined.")
        }
    }
}
