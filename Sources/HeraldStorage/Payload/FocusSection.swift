import HeraldCore
import HeraldProtocol

/// Format 2 and 3: the host's one Focus in effect, if any, and the count of activations
/// (which "silenced by this same Focus" compares). Retired in format 4, where each uid
/// has its Focuses (``FocusesSection``): read from older snapshots and given to every uid
/// with interactions or notifications.
enum FocusSection: JSONSnapshotSection {
    static let name = "focus"
    static let since: UInt32 = 2
    static let retiredIn: UInt32? = 4

    struct Form: Codable {
        var configuration: FocusConfiguration?
        var activation: UInt64
    }

    /// Never written (the section is retired); what an old snapshot's section would say of
    /// a state without a host Focus.
    static func form(of state: HeraldState) -> Form {
        Form(configuration: nil, activation: state.storedFocuses.activations)
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        state.restoreHostFocus(form.configuration, activation: form.activation)
    }
}
