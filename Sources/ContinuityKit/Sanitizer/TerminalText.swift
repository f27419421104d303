/// Makes text safe to print to a terminal: printed text shows what it holds and cannot drive
/// the terminal (move the cursor, recolor, retitle the window, write the clipboard, open
/// hyperlinks).
///
/// ``inert(_:)`` replaces each control with a visible placeholder and leaves every other
/// character as it is:
///
/// | input | placeholder |
/// |---|---|
/// | ESC U+001B | `␛` U+241B; the rest of its sequence stays as plain text: `ESC[31m` → `␛[31m`, `ESC]0;title BEL` → `␛]0;title␇` |
/// | other C0 controls U+0000–U+001F except `\t` and `\n` | the Control Pictures `␀` U+2400 … `␟` U+241F (`\r` → `␍`) |
/// | DEL U+007F | `␡` U+2421 |
/// | C1 controls U+0080–U+009F, including the 8-bit CSI U+009B | `�` U+FFFD (there are no pictures for C1) |
///
/// `\r\n` becomes `\n`: a Windows line ending is not hiding anything. A lone `\r`, which
/// could move the cursor back and overprint the line, shows as `␍`.
///
/// Bidirectional and zero-width characters are not terminal controls and pass through;
/// ``Sanitizer`` removes them from stored text. Where text that was never sanitized is echoed —
/// a value the user gave, quoted in an error message — ``escapingBidiControls(_:)`` shows the
/// bidirectional controls as escapes.
public enum TerminalText {
  /// Returns `text` with every terminal control replaced by a visible placeholder.
  ///
  /// See ``TerminalText`` for the placeholders. The result holds no scalar below U+0020 but
  /// `\n` and `\t`, none in U+007F–U+009F, and `inert(inert(x)) == inert(x)`.
  ///
  /// - Parameter text: Text to print, such as stored knowledge or a tool's output.
  /// - Returns: The printable text; `text` itself when it holds no control.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func inert(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var printable = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      switch scalar.value {
      case 0x09, 0x0A:
        printable.append(scalar)
      case 0x0D where pending == "\n":
        break  // The "\n" that follows is kept.
      case 0x00...0x1F:
        printable.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F:
        printable.append("\u{2421}")
      case 0x80...0x9F:
        printable.append("\u{FFFD}")
      default:
        printable.append(scalar)
      }
    }
    return String(printable)
  }

  /// Returns `text` on one line: each line break, and each tab, becomes one space.
  ///
  /// For one-line fields printed as a row or after a label (titles, a handoff's focus, a
  /// task's title): a line break stored in one would start what reads as another row. Line
  /// breaks are the characters Swift counts as newlines: `\n`, `\r`, `\r\n` (one space), VT
  /// U+000B, FF U+000C, NEL U+0085, LINE SEPARATOR U+2028 and PARAGRAPH SEPARATOR U+2029. The
  /// stored text is not changed; this is for display only. Compose it with ``inert(_:)`` as
  /// `inert(singleLine(x))`, so that a lone `\r` folds to a space rather than showing as `␍`.
  ///
  /// - Parameter text: One-line stored text, such as a title.
  /// - Returns: `text` without line breaks or tabs; `text` itself when it holds none.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func singleLine(_ text: String) -> String {
    guard text.contains(where: isFolded) else { return text }
    var line = ""
    line.reserveCapacity(text.utf8.count)
    for character in text { line.append(isFolded(character) ? " " : character) }
    return line
  }

  /// Returns one-line stored text in double quotes, with `\` and `"` inside escaped as in JSON
  /// (`\\`, `\"`), and every control character written as an escape, so that the result is
  /// one line that shows what the text holds and holds no control: `\n`, `\r` (`\r\n` for
  /// CRLF), `\t`, and every other C0 control, DEL, C1 control and the line breaks U+2028 and
  /// U+2029 as `\u{` + uppercase hexadecimal + `}` — `\u{7}` for BEL, `\u{1B}` for ESC,
  /// `\u{B}` for VT, `\u{85}` for NEL (the escapes of ``Limits/escaped(_:)``, which
  /// `dolphin analyze` prints file names with, and of ``escapingControls(_:)``).
  ///
  /// For a title or focus printed next to ids or other fields: a `"` inside it cannot close the
  /// quotation early and append text that reads as the line's own (a forged id or date), a line
  /// break cannot start another line, and a terminal escape shows as the characters it is made
  /// of, told apart from a title that holds the picture `␛` itself. Bidirectional controls are
  /// left to ``escapingBidiControls(_:)``.
  ///
  /// - Parameter text: One-line stored text, such as a title.
  /// - Returns: `"` + the escaped text + `"`; `Say "hi"` gives `"Say \"hi\""`, and a title
  ///   holding a line feed, `"a\nb"` (a backslash and an `n`).
  /// - Complexity: O(*n*) in the length of `text`.
  public static func quoted(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    out.append("\"")
    // Per scalar, so that a quote carrying a combining mark (one `Character`) is escaped too.
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\", "\"":
        out.append("\\")
        out.append(scalar)
      case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
      case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
      case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
      // The line and paragraph separators break a line as a line feed does: escaped always,
      // as the other controls are.
      case _ where scalar == "\u{2028}" || scalar == "\u{2029}" || isControl(scalar):
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      default: out.append(scalar)
      }
    }
    out.append("\"")
    return String(out)
  }

  /// Returns `text` with each bidirectional control written as a visible escape, `\u{202E}`.
  ///
  /// For text echoed back as it was given, such as a command-line value quoted in an error
  /// message: a right-to-left override (U+202E) in it would reorder the rest of the line on the
  /// screen, so that the message shows something other than what it holds (`'txt.exe'` for
  /// `'exe.txt'` reversed, a flag or id that reads differently). Stored text never holds them
  /// (``Sanitizer`` drops them at capture), and ``inert(_:)`` leaves them alone: right-to-left
  /// text needs its marks to read correctly, and they cannot drive a terminal.
  ///
  /// The characters are those with Unicode's `Bidi_Control` property: the Arabic letter mark
  /// U+061C, the left-to-right and right-to-left marks U+200E and U+200F, the embeddings and
  /// overrides U+202A–U+202E, and the isolates U+2066–U+2069 (Unicode Standard Annex #9,
  /// "Unicode Bidirectional Algorithm", table 4). The escape is the one ``Limits/escaped(_:)``
  /// writes for controls: `\u{` + uppercase hexadecimal + `}`.
  ///
  /// - Parameter text: Text to echo, such as a value the user gave.
  /// - Returns: `text` without bidirectional controls, each replaced by its escape; `text`
  ///   itself when it holds none.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func escapingBidiControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: \.properties.isBidiControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.properties.isBidiControl {
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// Returns `text` with each control character that is not a tab or a line break (C0 but `\t`,
  /// `\n`, `\r`, VT, FF; DEL; C1 but NEL) written as its escape, `\u{7F}`, for an error message
  /// that quotes a value as given: the sanitizer would drop them and quote a value nobody sent.
  /// Tabs and line breaks are left for ``singleLine(_:)`` to fold.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func escapingControls(_ text: String) -> String {
    func escapes(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85: false
      case 0x00...0x1F, 0x7F...0x9F: true
      default: false
      }
    }
    guard text.unicodeScalars.contains(where: escapes) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if escapes(scalar) {
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  private static func isFolded(_ character: Character) -> Bool {
    character.isNewline || character == "\t"
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    default: false
    }
  }
}
