import ContinuityKit
import Foundation
import Testing

/// The default workspace directory and the refusal of an empty or relative `DOLPHIN_HOME`.
@Suite("Workspace location")
struct WorkspaceLocationTests {
  @Test("DOLPHIN_HOME, then XDG_DATA_HOME/dolphin (an empty one counts as unset), then ~/.local/share/dolphin")
  func order() throws {
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["DOLPHIN_HOME": "/d", "XDG_DATA_HOME": "/x"]).path == "/d")
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/dolphin")
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]).path == "/h/.local/share/dolphin")
  }

  @Test("a DOLPHIN_HOME set but empty or only whitespace is refused naming it", arguments: ["", " ", "\t"])
  func emptyHomeRefused(_ value: String) {
    let error = #expect(throws: ValidationError.self) {
      _ = try WorkspaceLocation.validatedDefaultDirectory(environment: ["DOLPHIN_HOME": value, "XDG_DATA_HOME": "/x"])
    }
    #expect(error?.field == "DOLPHIN_HOME")
    #expect(error?.message.hasPrefix("DOLPHIN_HOME is set but empty") == true, "\(error?.message ?? "")")
    // The unchecked function keeps its documented fallback.
    #expect(WorkspaceLocation.defaultDirectory(environment: ["DOLPHIN_HOME": "", "XDG_DATA_HOME": "/x"]).path == "/x/dolphin")
  }

  // Regression (s9/h2): a relative DOLPHIN_HOME was resolved against the current directory, so
  // each directory dolphin ran in had its own workspace, and `~/notes` from an MCP client's
  // configuration (no shell expands it) made a directory named `~` there.
  @Test("a relative DOLPHIN_HOME is refused naming it; a leading ~ gets its own advice", arguments: ["notes", "./ws", "~/notes", "../x"])
  func relativeDolphinHomeRefused(_ value: String) {
    let error = #expect(throws: ValidationError.self) {
      _ = try WorkspaceLocation.validatedDefaultDirectory(environment: ["DOLPHIN_HOME": value, "HOME": "/h"])
    }
    #expect(error?.field == "DOLPHIN_HOME")
    #expect(error?.message.hasPrefix("DOLPHIN_HOME is a relative path ('\(value)')") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("set it to an absolute path") == true)
    #expect(error?.message.contains("a leading ~ is expanded by a shell") == value.hasPrefix("~"))
  }

  @Test("a relative HOME is refused when the default workspace would be under it, and only then")
  func relativeHOMERefused() throws {
    let error = #expect(throws: ValidationError.self) {
      _ = try WorkspaceLocation.validatedDefaultDirectory(environment: ["HOME": "home/me"])
    }
    #expect(error?.field == "HOME")
    #expect(error?.message.hasPrefix("HOME is a relative path ('home/me')") == true, "\(error?.message ?? "")")
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["HOME": "home/me", "DOLPHIN_HOME": "/d"]).path == "/d")
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["HOME": "home/me", "XDG_DATA_HOME": "/x"]).path == "/x/dolphin")
  }

  @Test("a relative XDG_DATA_HOME is ignored, as the XDG Base Directory specification says", arguments: ["relative/path", "./x", "x"])
  func relativeXDGIgnored(_ value: String) throws {
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["XDG_DATA_HOME": value, "HOME": "/h"]).path == "/h/.local/share/dolphin")
    #expect(WorkspaceLocation.defaultDirectory(environment: ["XDG_DATA_HOME": value, "HOME": "/h"]).path == "/h/.local/share/dolphin")
  }

  @Test("a HOME set but empty is refused naming it when the default workspace would be under it", arguments: ["", "  "])
  func emptyHOMERefused(_ value: String) throws {
    for environment in [["HOME": value], ["HOME": value, "XDG_DATA_HOME": ""], ["HOME": value, "XDG_DATA_HOME": "rel"]] {
      let error = #expect(throws: ValidationError.self) {
        _ = try WorkspaceLocation.validatedDefaultDirectory(environment: environment)
      }
      #expect(error?.field == "HOME", "\(environment)")
      #expect(error?.message.hasPrefix("HOME is set but empty") == true, "\(error?.message ?? "")")
      #expect(error?.message.contains("--workspace") == true)
    }
    // Not used, so not refused: DOLPHIN_HOME or an absolute XDG_DATA_HOME chooses the directory.
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["HOME": value, "DOLPHIN_HOME": "/d"]).path == "/d")
    #expect(try WorkspaceLocation.validatedDefaultDirectory(environment: ["HOME": value, "XDG_DATA_HOME": "/x"]).path == "/x/dolphin")
  }
}
