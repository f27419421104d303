import Foundation

/// Where the workspace lives.
public enum WorkspaceLocation {
  /// The default workspace directory: `$DOLPHIN_HOME`, else `$XDG_DATA_HOME/dolphin`, else
  /// `$HOME/.local/share/dolphin`.
  ///
  /// An `XDG_DATA_HOME` that is empty or not an absolute path is ignored, as the XDG Base
  /// Directory specification requires. Empty `DOLPHIN_HOME` and `HOME` count as unset here, and
  /// an unset `HOME` means the account's home directory from the password database; a host
  /// that reads these from the user (the CLI) calls ``validatedDefaultDirectory(environment:)``
  /// instead, which refuses an empty `DOLPHIN_HOME`, and an empty `HOME` when it would be used.
  /// - Parameter environment: the process environment (injected for tests).
  public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let home = environment["DOLPHIN_HOME"], !home.isEmpty {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    if let xdg = usableXDGDataHome(environment) {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("dolphin", isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/dolphin", isDirectory: true)
  }

  /// `XDG_DATA_HOME` when it is set to an absolute path; nil when it is unset, empty or
  /// relative, which the XDG Base Directory specification says to ignore.
  private static func usableXDGDataHome(_ environment: [String: String]) -> String? {
    guard let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") else { return nil }
    return xdg
  }

  /// The default workspace directory as ``defaultDirectory(environment:)`` chooses it, refusing a
  /// `DOLPHIN_HOME` that is set but empty or only whitespace, or not an absolute path, and a
  /// `HOME` that is so when the choice falls to it.
  ///
  /// Such a value is a mistake (a script's `DOLPHIN_HOME=$UNSET_VARIABLE`, a typo): falling
  /// back to another workspace would read or write where the user did not ask. A relative one
  /// would name another workspace in every directory dolphin is started from — an MCP client
  /// starts it where it likes — and `~/notes` from a configuration file that no shell expands
  /// would make a directory named `~` there. An unset
  /// `DOLPHIN_HOME` selects the fallbacks; an empty or relative `XDG_DATA_HOME` counts as unset,
  /// as the XDG Base Directory specification says; an unset `HOME` means the account's home
  /// directory from the password database.
  /// - Parameter environment: the process environment (injected for tests).
  /// - Returns: the directory.
  /// - Throws: ``ValidationError`` with field `DOLPHIN_HOME` when it is set but empty or
  ///   relative, or with field `HOME` when neither `DOLPHIN_HOME` nor a usable `XDG_DATA_HOME`
  ///   is set and `HOME` is set but empty or relative.
  public static func validatedDefaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ValidationError) -> URL {
    if let home = environment["DOLPHIN_HOME"], home.allSatisfy(\.isWhitespace) {
      throw ValidationError(
        field: "DOLPHIN_HOME",
        message: "DOLPHIN_HOME is set but empty\(home.isEmpty ? "" : " (only whitespace)"); set it to the workspace "
          + "directory, unset it to use the default ($XDG_DATA_HOME/dolphin, else ~/.local/share/dolphin), "
          + "or pass --workspace DIR")
    }
    if let home = environment["DOLPHIN_HOME"], !home.hasPrefix("/") {
      throw ValidationError(
        field: "DOLPHIN_HOME",
        message: "DOLPHIN_HOME is a relative path ('\(Limits.escaped(home))'), which would name another workspace in "
          + "every directory dolphin starts in\(tildeAdvice(home)); set it to an absolute path, unset it to use the "
          + "default ($XDG_DATA_HOME/dolphin, else ~/.local/share/dolphin), or pass --workspace DIR")
    }
    if environment["DOLPHIN_HOME"] == nil, usableXDGDataHome(environment) == nil, let home = environment["HOME"] {
      if home.allSatisfy(\.isWhitespace) {
        throw ValidationError(
          field: "HOME",
          message: "HOME is set but empty\(home.isEmpty ? "" : " (only whitespace)"), and neither DOLPHIN_HOME nor an "
            + "absolute XDG_DATA_HOME is set, so there is no default workspace (~/.local/share/dolphin); set HOME, "
            + "set DOLPHIN_HOME to the workspace directory, or pass --workspace DIR")
      }
      if !home.hasPrefix("/") {
        throw ValidationError(
          field: "HOME",
          message: "HOME is a relative path ('\(Limits.escaped(home))'), and neither DOLPHIN_HOME nor an absolute "
            + "XDG_DATA_HOME is set, so the default workspace (~/.local/share/dolphin) would be another one in every "
            + "directory dolphin starts in; set HOME to an absolute path, set DOLPHIN_HOME to the workspace "
            + "directory, or pass --workspace DIR")
      }
    }
    return defaultDirectory(environment: environment)
  }

  /// What to say about a leading `~`, which only a shell expands.
  private static func tildeAdvice(_ path: String) -> String {
    path.hasPrefix("~")
      ? " (a leading ~ is expanded by a shell, not in a configuration file such as an MCP client's: write the "
        + "home directory out)"
      : ""
  }
}
