/// The sentence splitter of `synth.py` (`sentences(text)`).
enum Sentences {
  /// Splits `text` after each `.`, `!` or `?` that is followed by a space (U+0020); that one
  /// space is dropped, and empty pieces are dropped.
  ///
  /// Works on Unicode scalars, as Python's `str` does. Any further spaces stay at the start of
  /// the next piece, and a terminator at the very end of the text does not split.
  ///
  /// - Parameter text: The document text.
  /// - Returns: The pieces in order; their scalars, with the dropped spaces, make up `text`.
  /// - Complexity: O(*n*) in the number of scalars.
  static func split(_ text: String) -> [String] {
    let scalars = text.unicodeScalars
    var pieces: [String] = []
    var pieceStart = scalars.startIndex
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      if scalar == "." || scalar == "!" || scalar == "?", next != scalars.endIndex,
        scalars[next] == " "
      {
        pieces.append(String(scalars[pieceStart..<next]))
        index = scalars.index(after: next)
        pieceStart = index
        continue
      }
      index = next
    }
    if pieceStart != scalars.endIndex {
      pieces.append(String(scalars[pieceStart...]))
    }
    return pieces.filter { !$0.isEmpty }
  }
}
