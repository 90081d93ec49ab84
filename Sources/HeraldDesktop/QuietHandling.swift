/// What a presenter does with a `quiet` notification (one Herald delivered to the list
/// without sound or light).
package enum QuietHandling: String, Sendable, CaseIterable {
    /// Shown with urgency low and no sound.
    case show
    /// Left in Herald's notification list only.
    case skip
}
