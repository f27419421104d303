import Foundation

/// Where the workspace lives.
public enum WorkspaceLocation {
  /// The default workspace directory: `$DOLPHIN_HOME`, else `$XDG_DATA_HOME/dolphin`, else
  /// `~/.local/share/dolphin`. Empty variables count as unset here; a host that reads
  /// `DOLPHIN_HOME` from the user (the CLI) calls ``validatedDefaultDirectory(environment:)``
  /// instead, which refuses an empty one.
  /// - Parameter environment: the process environment (injected for tests).
  public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let home = environment["DOLPHIN_HOME"], !home.isEmpty {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("dolphin", isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".local/share/dolphin", isDirectory: true)
  }

  /// The default workspace directory as ``defaultDirectory(environment:)`` chooses it, refusing a
  /// `DOLPHIN_HOME` that is set but empty or only whitespace.
  ///
  /// Such a value is a mistake (a script's `DOLPHIN_HOME=$UNSET_VARIABLE`, a typo): falling
  /// back to another workspace would read or write where the user did not ask. An unset
  /// `DOLPHIN_HOME` selects the fallbacks; an empty `XDG_DATA_HOME` counts as unset, as the
  /// XDG Base Directory specification says.
  /// - Parameter environment: the process environment (injected for tests).
  /// - Returns: the directory.
  /// - Throws: ``ValidationError`` with field `DOLPHIN_HOME` when it is set but empty.
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
    return defaultDirectory(environment: environment)
  }
}
