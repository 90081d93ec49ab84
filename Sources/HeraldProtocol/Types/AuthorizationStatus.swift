/// Whether an app may read the Focus status (`INFocusStatusAuthorizationStatus`).
package enum AuthorizationStatus: String, JSONEnum, Hashable {
    /// Nobody has decided yet; under the `prompt` policy it stays so until an
    /// administrator sets it.
    case notDetermined
    case restricted
    case denied
    case authorized
}
