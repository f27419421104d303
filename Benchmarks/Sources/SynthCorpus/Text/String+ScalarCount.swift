extension String {
  /// The number of Unicode scalars: Python's `len()` of the same text.
  ///
  /// Counts UTF-8 bytes that start a scalar, which is faster than walking `unicodeScalars`.
  ///
  /// - Complexity: O(*n*) in the UTF-8 length.
  package var unicodeScalarCount: Int {
    var text = self
    return text.withUTF8 { bytes in
      var count = 0
      for byte in bytes where byte & 0xC0 != 0x80 {
        count += 1
      }
      return count
    }
  }
}
