/// A short, single-line excerpt of a document's text around a match.
package enum Snippet {
  /// The ellipsis marking text cut away at either end.
  package static let ellipsis: Character = "…"

  /// An excerpt of `text` of at most `maximumLength` characters, centred on `matchOffset`.
  ///
  /// Cuts fall on `Character` boundaries, preferably at a space within the outer 20
  /// characters of the window, and are marked with `…`. Line breaks, tabs and other control
  /// characters become spaces and runs of spaces collapse to one; bidirectional embedding,
  /// override and isolate controls are removed so an excerpt cannot reorder the text around
  /// it.
  ///
  /// - Parameters:
  ///   - text: the document text.
  ///   - matchOffset: the UTF-8 offset of the first match in `text`, or nil to take the start.
  ///   - maximumLength: the bound in `Character`s, ellipses included (≥ 3).
  /// - Complexity: O(`maximumLength`) Character steps, independent of the text's length.
  package static func make(from text: String, around matchOffset: Int?, maximumLength: Int)
    -> String
  {
    let bound = max(3, maximumLength)
    let utf8 = text.utf8
    let offset = min(max(0, matchOffset ?? 0), utf8.count)
    if let excerpt = asciiExcerpt(of: text, around: offset, bound: bound) { return excerpt }
    // Walk whole Characters out from the match (the index is rounded down to a Character
    // boundary by the Character view): at most `bound` steps, whatever the text's length.
    let center = utf8.index(utf8.startIndex, offsetBy: offset)
    var low = center
    var high = center
    var taken = 0
    while taken < bound / 2 && low > text.startIndex {
      low = text.index(before: low)
      taken += 1
    }
    while taken < bound && high < text.endIndex {
      high = text.index(after: high)
      taken += 1
    }
    while taken < bound && low > text.startIndex {
      low = text.index(before: low)
      taken += 1
    }
    let cutBefore = low > text.startIndex
    let cutAfter = high < text.endIndex
    // Make room for the ellipses.
    if cutBefore { low = text.index(after: low) }
    if cutAfter && high > low { high = text.index(before: high) }

    var characters = Array(text[low..<high])
    if cutBefore, let space = characters.prefix(20).firstIndex(where: \.isWhitespace) {
      characters.removeSubrange(...space)
    }
    if cutAfter, let space = characters.suffix(20).lastIndex(where: \.isWhitespace) {
      characters.removeSubrange(space...)
    }
    var excerpt = clean(characters[...])
    if cutBefore { excerpt = String(ellipsis) + excerpt }
    if cutAfter { excerpt += String(ellipsis) }
    return excerpt
  }

  /// The same excerpt on bytes, when every byte the window can reach is ASCII (then a byte is
  /// a Character, except CR LF, which counts as two here and so only shortens the excerpt).
  private static func asciiExcerpt(of text: String, around offset: Int, bound: Int) -> String? {
    let result: String?? = text.utf8.withContiguousStorageIfAvailable { bytes in
      let count = bytes.count
      let reach = max(0, offset - bound)..<min(count, offset + bound)
      guard bytes[reach].allSatisfy({ $0 < 0x80 }) else { return nil }
      var start = 0
      var end = count
      var cutBefore = false
      var cutAfter = false
      if count > bound {
        start = max(0, min(offset - bound / 2, count - bound))
        end = min(count, start + bound)
        cutBefore = start > 0
        cutAfter = end < count
        if cutBefore { start += 1 }
        if cutAfter { end -= 1 }
        if cutBefore, let space = bytes[start..<min(start + 20, end)].firstIndex(of: 0x20) {
          start = space + 1
        }
        if cutAfter, let space = bytes[max(start, end - 20)..<end].lastIndex(of: 0x20) {
          end = space
        }
      }
      var cleaned: [UInt8] = []
      cleaned.reserveCapacity(end - start + 6)
      if cutBefore { cleaned.append(contentsOf: String(ellipsis).utf8) }
      var pendingSpace = false
      var wroteText = false
      for byte in bytes[start..<end] {
        if byte <= 0x20 || byte == 0x7F {
          pendingSpace = wroteText
          continue
        }
        if pendingSpace {
          cleaned.append(0x20)
          pendingSpace = false
        }
        cleaned.append(byte)
        wroteText = true
      }
      if cutAfter { cleaned.append(contentsOf: String(ellipsis).utf8) }
      return String(decoding: cleaned, as: UTF8.self)
    }
    return result ?? nil
  }

  /// One line: whitespace and controls become single spaces, bidi controls are dropped.
  private static func clean(_ characters: ArraySlice<Character>) -> String {
    var result = ""
    var pendingSpace = false
    result.reserveCapacity(characters.count)
    for character in characters {
      let separates: Bool
      if let ascii = character.asciiValue {
        // Fast path: C0 controls, space and DEL; CR LF is one Character.
        separates = ascii <= 0x20 || ascii == 0x7F
      } else if character.unicodeScalars.contains(where: isBidiControl) {
        continue
      } else {
        separates =
          character.isWhitespace || character.unicodeScalars.contains(where: isControl)
      }
      if separates {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace {
        result.append(" ")
        pendingSpace = false
      }
      result.append(character)
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control
  }

  private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
