import Foundation

/// Where the workspace lives.
public enum WorkspaceLocation {
  /// The default workspace directory: `$DOLPHIN_HOME`, else `$XDG_DATA_HOME/dolphin`, else
  /// `~/.local/share/dolphin`. Empty variables count as unset.
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
}
