/// What a presenter does with a `quiet` notification (one Herald delivered to the list
/// without sound or light: silenced by a Focus, passive, or an app's quiet setting).
package enum QuietHandling: String, Sendable, CaseIterable {
    /// Shown with urgency low and no sound.
    case show
    /// Left in Herald's notification list only: the default, so that what Herald
    /// delivered quietly never pops up (the seeds' Focus filters presentation).
    case skip
}
