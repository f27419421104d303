/// Text made into one word of a POSIX shell command line, for the commands messages print for
/// the user to paste into a terminal (`sqlite3 PATH "SQL"`, `ls -la DIR`, the `dolphin` commands
/// of ``SuggestedCommand``).
///
/// Source: POSIX.1-2017, Shell Command Language, 2.2 Quoting; for `$'…'`, POSIX.1-2024, 2.2.4
/// Dollar-Single-Quotes, and the bash manual, 3.1.2.4 ANSI-C Quoting.
package enum ShellWord {
  /// `text` as one shell word: in single quotes, each `'` in it written `'\''` (close the
  /// quotation, an escaped quote, open it again). Inside single quotes the shell takes every
  /// character literally, so spaces, `"`, `$`, backquotes, `\`, `!` and `*` stay as they are.
  ///
  /// Text holding a character that a message cannot show as it is — a tab, a line break or
  /// another control character (C0, DEL, C1), U+2028, U+2029, a bidirectional control, or a
  /// format character that shows nothing (a zero-width space or joiner, U+FEFF; review 30-b, 7:
  /// they were printed raw, so the advice looked like another value); the CLI prints control
  /// characters as escapes such as `\t`, which inside single quotes would be a backslash and a
  /// `t` — is written in ANSI-C quotes instead, `$'a\tb'`, which bash, zsh, ksh93 and a
  /// POSIX.1-2024 `sh` read back as the exact text (dash does not: it reads `$` and the escapes
  /// literally) (review 29-b, 6): `\t`, `\n`, `\r` and `\\` for those characters, and every
  /// other such character, `'` included, as the three-digit octal escapes of its UTF-8 bytes
  /// (`\047`, `\342\200\250`), so that the word holds no `\'` (which interactive bash's history
  /// expansion would misread), no escape can take in the digit after it, and it means the same
  /// whatever the locale.
  package static func quoted(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else {
      return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
    var out = "$'"
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\t": out += #"\t"#
      case "\n": out += #"\n"#
      case "\r": out += #"\r"#
      case "\\": out += #"\\"#
      case _ where scalar == "'" || needsEscape(scalar):
        for byte in String(scalar).utf8 {
          let octal = String(byte, radix: 8)
          out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "'"
  }

  /// Whether `scalar` is one a message escapes rather than shows (``quoted(_:)``): a control
  /// character (general category Cc: C0, DEL, C1), U+2028, U+2029, a bidirectional control
  /// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), or another format character
  /// (general category Cf), which a terminal shows as nothing or next to nothing: the zero-width
  /// space, non-joiner and joiner U+200B–U+200D, the word joiner U+2060 and the invisible
  /// operators after it, U+FEFF, the soft hyphen U+00AD, U+180E and the tag characters
  /// U+E0001–U+E007F. An emoji sequence's joiner is escaped too (`$'👩\342\200\215💻'`); the
  /// shell reads the word back whole.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format: return true
    default: return scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.properties.isBidiControl
    }
  }

  /// `text` as it is when no character in it is special to a shell (letters, digits and
  /// `-_./:=,@%+`), otherwise ``quoted(_:)``: `--workspace`, `/tmp/ws`, `'my notes'`.
  package static func word(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./:=,@%+".unicodeScalars.contains($0))
      }
    return plain ? text : quoted(text)
  }

  /// An SQL statement as one shell word: in double quotes, as people write it (its own string
  /// literals keep their single quotes), when nothing in it is special inside double quotes;
  /// otherwise ``quoted(_:)``.
  package static func sqlArgument(_ sql: String) -> String {
    // `$`, backquote, `\` and `"` are special inside double quotes; `!` is to an interactive
    // bash; a control character must be escaped (``quoted(_:)``).
    sql.contains(where: { "$`\\\"!".contains($0) }) || sql.unicodeScalars.contains(where: needsEscape)
      ? quoted(sql) : "\"\(sql)\""
  }

  /// `value` as an SQL string literal: in single quotes, each `'` in it doubled (SQL-92).
  package static func sqlLiteral(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// `name` as an SQL identifier: in double quotes, each `"` in it doubled (SQL-92), so any
  /// table, index or trigger name another program chose can be named in a statement.
  package static func sqlIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
