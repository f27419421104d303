import ContinuityKit
import Foundation

extension KnowledgeEngine {
  /// The fewest hexadecimal digits an id prefix must give to name a handoff
  /// (``resolveHandoffReference(_:field:)``).
  public static let handoffIDPrefixMinimum = 8

  /// How many of the handoffs an ambiguous id prefix begins the error of
  /// ``resolveHandoffReference(_:field:)`` names, newest first, before saying how many more.
  public static let ambiguousHandoffsListed = 5

  /// The word that names the newest handoff by creation (``resolveHandoffReference(_:field:)``).
  public static let latestHandoffWord = "latest"

  /// The handoff a user's reference names: a full UUID; `latest` (any case), the newest
  /// handoff by creation (ties broken as ``listHandoffs(limit:)`` orders them); or a prefix of
  /// a handoff id's `uuidString` of at least ``handoffIDPrefixMinimum`` hexadecimal digits
  /// (any case), with hyphens where the UUID has them or with none (`3F2504E0-4F89` and
  /// `3F2504E04F89` are the same prefix: digits are compared, hyphens left out), that exactly
  /// one stored handoff has.
  ///
  /// A prefix is never a guess: when it names more than one handoff, none is chosen, and the
  /// error says how many it names and lists the newest ``ambiguousHandoffsListed`` of them. Surrounding white space is ignored. At most ``Limits/handoffs``
  /// handoffs exist, so a prefix is matched against all of them in memory.
  /// - Parameters:
  ///   - reference: what the user typed.
  ///   - field: the argument named in errors, e.g. `id`.
  /// - Returns: the id of a stored handoff (a full UUID is returned as given, whether or not a
  ///   handoff has it: reading it says ``WorkspaceError/notFound(recordType:id:)`` as before).
  /// - Throws: ``WorkspaceError/validation(_:)`` naming `field`: for text that is neither a
  ///   UUID, `latest` nor a prefix of ``handoffIDPrefixMinimum``–32 hexadecimal digits (with the
  ///   UUID's hyphens or none); for a
  ///   prefix more than one handoff has (counting them, and listing the newest
  ///   ``ambiguousHandoffsListed``); and, marked
  ///   ``ValidationError/missingRecord``, for `latest` when no handoff exists or a prefix no
  ///   handoff has. Storage errors.
  public func resolveHandoffReference(_ reference: String, field: String = "id") throws -> UUID {
    try resolveHandoffReference(reference, field: field, hints: .commandLine)
  }

  /// ``resolveHandoffReference(_:field:)``, with errors that point to `hints`' ways of listing
  /// and creating handoffs (an MCP client's tools rather than the CLI's commands).
  /// - Parameters:
  ///   - reference: what the user or client gave.
  ///   - field: the argument named in errors, e.g. `id`.
  ///   - hints: how the errors say to list handoffs and to create one.
  /// - Returns: the id of a stored handoff, as ``resolveHandoffReference(_:field:)`` returns it.
  /// - Throws: what ``resolveHandoffReference(_:field:)`` throws, its advice taken from `hints`.
  public func resolveHandoffReference(_ reference: String, field: String, hints: HandoffReferenceHints) throws -> UUID {
    let text = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = UUID(uuidString: text) { return id }
    let shown = Limits.quoted(reference, cutAt: 60)
    if text.lowercased() == Self.latestHandoffWord {
      guard let newest = try store.read({ tx in try tx.listHandoffs(limit: 1).first }) else {
        throw WorkspaceError.validation(
          ValidationError(
            field: field,
            message: "\(field) \(shown) names the newest handoff, and the workspace holds none; "
              + "create one with \(hints.creating)",
            missingRecord: .init(recordType: "handoff", id: Self.latestHandoffWord)))
      }
      return newest.id
    }
    let prefix = text.uppercased()
    // Compared by hexadecimal digits alone, so that `9917CC8F12ED` (typed without the hyphen)
    // names what `9917CC8F-12ED` names (review 23-a, 8: it was refused as malformed).
    let digits = prefix.filter { $0 != "-" }
    guard Self.isUUIDPrefix(prefix) || Self.isUUIDDigitPrefix(prefix), digits.count >= Self.handoffIDPrefixMinimum else {
      throw WorkspaceError.validation(
        ValidationError(
          field: field,
          message: "\(field) \(shown) is not a UUID, `\(Self.latestHandoffWord)`, or the start of a handoff id "
            + "(at least \(Self.handoffIDPrefixMinimum) hexadecimal digits, e.g. 3F2504E0; a full id reads "
            + "3F2504E0-4F89-11D3-9A0C-0305E82C3301)"))
    }
    let candidates = try store.read { tx in try tx.listHandoffs() }.filter {
      $0.id.uuidString.filter { $0 != "-" }.hasPrefix(digits)
    }
    switch candidates.count {
    case 1: return candidates[0].id
    case 0:
      throw WorkspaceError.validation(
        ValidationError(
          field: field, message: "\(field) \(shown): no handoff id begins with \(prefix) (\(hints.listing) lists them)",
          missingRecord: .init(recordType: "handoff", id: prefix)))
    default:
      // The first few, then how many more (review 28-b, 4: 200 matches made one 10 KB line).
      let listed = candidates.prefix(Self.ambiguousHandoffsListed).map {
        "\($0.id.uuidString) \(TerminalText.quoted(Truncation.truncate($0.focus, to: 60)))"
      }
      let more = candidates.count - listed.count
      throw WorkspaceError.validation(
        ValidationError(
          field: field,
          message: "\(field) \(shown) begins \(candidates.count) handoff ids, so it names none of them: "
            + (more > 0 ? "the newest \(listed.count) are " : "") + listed.joined(separator: "; ")
            + (more > 0 ? "; and \(more) more (\(hints.listing) lists them)" : "") + ". Give more of the id"))
    }
  }

  /// Whether `text` (upper case) could begin a UUID's hexadecimal digits without its hyphens:
  /// ASCII hexadecimal digits only, at most 32 of them.
  static func isUUIDDigitPrefix(_ text: String) -> Bool {
    text.count <= 32 && text.allSatisfy { $0.isASCII && $0.isHexDigit }
  }

  /// Whether `text` (upper case) could begin a UUID's `uuidString`: hexadecimal digits, with
  /// hyphens exactly where a UUID has them (after digits 8, 12, 16 and 20).
  static func isUUIDPrefix(_ text: String) -> Bool {
    let template = Array("XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX")
    guard text.count <= template.count else { return false }
    for (ch, slot) in zip(text, template) {
      if slot == "-" {
        guard ch == "-" else { return false }
      } else {
        guard ch.isHexDigit, ch.isASCII else { return false }
      }
    }
    return true
  }
}

/// How the errors of ``KnowledgeEngine/resolveHandoffReference(_:field:hints:)`` say to list
/// handoffs and to create one: each face names its own command or tool.
public struct HandoffReferenceHints: Sendable, Equatable {
  /// What lists the handoffs, as the subject of "… lists them": `` `dolphin handoff list` ``.
  public var listing: String
  /// What creates one, after "create one with": `` `dolphin handoff create --focus TEXT` ``.
  public var creating: String

  /// Hints naming `listing` and `creating`.
  public init(listing: String, creating: String) {
    self.listing = listing
    self.creating = creating
  }

  /// The CLI's commands, naming the workspace in effect (``SuggestedCommand``): made on each
  /// use, not once per process.
  public static var commandLine: HandoffReferenceHints {
    HandoffReferenceHints(
      listing: "`\(command: "dolphin handoff list")`", creating: "`\(command: "dolphin handoff create --focus TEXT")`")
  }
}
