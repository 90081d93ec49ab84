extension String {
    /// This text with spaces after it up to `width` characters, for a column; as it is when
    /// already that wide.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
