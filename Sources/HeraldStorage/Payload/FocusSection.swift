import HeraldCore
import HeraldProtocol

/// The Focus in effect, if any, and the count of activations (which "silenced by this
/// same Focus" compares).
enum FocusSection: JSONSnapshotSection {
    static let name = "focus"
    static let since: UInt32 = 2

    struct Form: Codable {
        var configuration: FocusConfiguration?
        var activation: UInt64
    }

    static func form(of state: HeraldState) -> Form {
        let focus = state.storedFocus
        return Form(configuration: focus.configuration, activation: focus.activation)
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        state.restoreFocus(form.configuration, activation: form.activation)
    }
}
