/// Text made into one word of a POSIX shell command line, for the commands messages print for
/// the user to paste into a terminal (`sqlite3 PATH "SQL"`, `ls -la DIR`, the `dolphin` commands
/// of ``SuggestedCommand``).
///
/// Source: POSIX.1-2017, Shell Command Language, 2.2 Quoting.
package enum ShellWord {
  /// `text` in single quotes, each `'` in it written `'\''` (close the quotation, an escaped
  /// quote, open it again). Inside single quotes the shell takes every character literally, so
  /// spaces, `"`, `$`, backquotes, `\`, `!` and `*` stay as they are.
  package static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
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
    // `$`, backquote, `\` and `"` are special inside double quotes; `!` is to an interactive bash.
    sql.contains(where: { "$`\\\"!".contains($0) }) ? quoted(sql) : "\"\(sql)\""
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
