/// What an authorized app may know of the user's Focus (`INFocusStatus`).
public struct FocusStatus: Codable, Sendable, Hashable {
    /// True when a Focus is on and the app is not among its allowed apps.
    public var isFocused: Bool

    public init(isFocused: Bool) {
        self.isFocused = isFocused
    }
}
