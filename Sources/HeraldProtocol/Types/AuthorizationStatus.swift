/// Whether an app may read the Focus status (`INFocusStatusAuthorizationStatus`).
package enum AuthorizationStatus: String, JSONEnum, Hashable {
    /// Nobody has decided yet; under the `prompt` policy it stays so until the person
    /// (or an administrator) answers the request with `set-focus-authorization`.
    case notDetermined
    /// An administrator's decision, which the person cannot change.
    case restricted
    case denied
    case authorized
}
