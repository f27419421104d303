/// Text made into one word of a POSIX shell command line, for the commands `doctor` prints for
/// the user to paste into a terminal (`sqlite3 PATH "SQL"`, `ls -la DIR`).
///
/// Source: POSIX.1-2017, Shell Command Language, 2.2 Quoting.
enum ShellWord {
  /// `text` in single quotes, each `'` in it written `'\''` (close the quotation, an escaped
  /// quote, open it again). Inside single quotes the shell takes every character literally, so
  /// spaces, `"`, `$`, backquotes, `\`, `!` and `*` stay as they are.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// An SQL statement as one shell word: in double quotes, as people write it (its own string
  /// literals keep their single quotes), when nothing in it is special inside double quotes;
  /// otherwise ``quoted(_:)``.
  static func sqlArgument(_ sql: String) -> String {
    // `$`, backquote, `\` and `"` are special inside double quotes; `!` is to an interactive bash.
    sql.contains(where: { "$`\\\"!".contains($0) }) ? quoted(sql) : "\"\(sql)\""
  }

  /// `value` as an SQL string literal: in single quotes, each `'` in it doubled (SQL-92).
  static func sqlLiteral(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
  }
}
