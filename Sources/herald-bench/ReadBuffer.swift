/// Doubles a raw read buffer once it is full, keeping the `filled` bytes it holds.
func growIfFull(_ buffer: inout UnsafeMutableRawPointer, capacity: inout Int, filled: Int) {
    guard filled == capacity else { return }
    let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
    larger.copyMemory(from: buffer, byteCount: filled)
    buffer.deallocate()
    buffer = larger
    capacity *= 2
}
