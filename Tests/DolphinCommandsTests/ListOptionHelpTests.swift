import Foundation
import Testing
import TestSupport

/// Review 26-a, #6: every tags and id-list option's help states its bounds.
@Suite("List options' help states their bounds")
struct ListOptionHelpTests {
  /// Review 26-a, #6: `memory save --help` said only "Comma-separated tags".
  @Test("every --tags and id-list option's help states its bounds")
  func listOptionsStateBounds() throws {
    func help(_ path: [String]) throws -> String {
      let r = try runDolphin(path + ["--help"])
      #expect(r.status == 0, "\(path): \(r.stderr)")
      return r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let memory = try help(["memory", "save"])
    #expect(memory.contains("--tags a,b Comma-separated tags (≤ 16, each ≤ 48 characters), stored trimmed and lowercased"), "\(memory)")
    #expect(try help(["capture"]).contains("Comma-separated tags (≤ 16, each ≤ 48 characters), stored trimmed and lowercased"))
    let edit = try help(["knowledge", "edit"])
    #expect(edit.contains("the item holds ≤ 16 tags, each ≤ 48 characters, stored trimmed and lowercased"), "\(edit)")
    #expect(edit.contains("Add these tags (each ≤ 48 characters"), "\(edit)")
    #expect(edit.contains("the item holds ≤ 32 in all"), "\(edit)")
    for path in [["task", "add"], ["task", "edit"], ["handoff", "create"]] {
      #expect(try help(path).contains("≤ 64 distinct ids; a repeat is kept once"), "\(path)")
    }
  }
}
