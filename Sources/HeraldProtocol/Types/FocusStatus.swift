/// What an authorized app may know of the user's Focus (`INFocusStatus`).
package struct FocusStatus: Codable, Sendable, Hashable {
    /// True when a Focus is on and the app is not among its allowed apps.
    package var isFocused: Bool

    package init(isFocused: Bool) {
        self.isFocused = isFocused
    }
}
