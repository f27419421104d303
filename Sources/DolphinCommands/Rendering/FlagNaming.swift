import ContinuityKit

/// How a library field is named in a command's error messages: by the flag the user typed.
///
/// The library names its fields (`nextSteps[0]`, `knowledgeIDs[2]`, `relationships[0]`); a user
/// of `dolphin handoff create --next …` never typed those. The error keeps its field (JSON
/// output and the library are unchanged); only the message names the flag.
struct FieldFlag: Sendable {
  /// The library field without an index, e.g. `nextSteps`.
  var field: String
  /// The flag, e.g. `--next`.
  var flag: String
  /// Whether the library's index counts the flag's values one to one (`--next #2`). False
  /// when the library deduplicates or normalizes them first (ids, tags): the message then
  /// names the flag alone and relies on the value it quotes.
  var numbered = false

  init(_ field: String, _ flag: String, numbered: Bool = false) {
    self.field = field
    self.flag = flag
    self.numbered = numbered
  }
}

extension CommandSpec {
  /// `error` with its message naming the flag instead of the library field, when the error is a
  /// validation error about a field in ``fieldFlags``; otherwise `error` unchanged.
  func namingFlags(in error: any Error) -> any Error {
    switch error {
    case let e as ValidationError:
      return namingFlag(in: e)
    case WorkspaceError.validation(let e):
      return WorkspaceError.validation(namingFlag(in: e))
    default:
      return error
    }
  }

  /// Rewrites the message's leading field name, e.g. `nextSteps[1] looks like …` → `--next #2
  /// looks like …`, `knowledgeIDs[0]: no knowledge item …` → `--knowledge: no knowledge item …`.
  /// Library field names written in camelCase later in the message (`give it to one of addTags
  /// and removeTags`) become their flags too (review 21-a, 16); a field that is an ordinary word
  /// (`content`, `title`) is left alone there, as it may be meant as the word.
  func namingFlag(in error: ValidationError) -> ValidationError {
    var renamed = error
    if error.message.hasPrefix(error.field), let label = flagLabel(for: error.field) {
      renamed.message = label + error.message.dropFirst(error.field.count)
    }
    for mapping in fieldFlags where mapping.field.contains(where: \.isUppercase) {
      renamed.message = Self.replacingWord(mapping.field, with: mapping.flag, in: renamed.message)
    }
    return renamed
  }

  /// `text` with every occurrence of `word` that no letter or digit touches replaced.
  static func replacingWord(_ word: String, with replacement: String, in text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let r = rest.range(of: word) {
      let before = r.lowerBound == rest.startIndex ? out.last : rest[rest.index(before: r.lowerBound)]
      let after = r.upperBound == rest.endIndex ? nil : rest[r.upperBound]
      let touches = { (c: Character?) in c.map { $0.isLetter || $0.isNumber } ?? false }
      out += rest[..<r.lowerBound]
      out += touches(before) || touches(after) ? word : replacement
      rest = rest[r.upperBound...]
    }
    return out + rest
  }

  /// `--next #2` for `nextSteps[1]`, `--knowledge` for `knowledgeIDs[0]` or `knowledgeIDs`;
  /// nil for a field this command does not map.
  func flagLabel(for field: String) -> String? {
    var base = Substring(field)
    var index: Int?
    if field.hasSuffix("]"), let open = field.lastIndex(of: "[") {
      base = field[..<open]
      index = Int(field[field.index(after: open)..<field.index(before: field.endIndex)])
      guard index != nil else { return nil }
    }
    guard let mapping = fieldFlags.first(where: { $0.field == base }) else { return nil }
    if let index, mapping.numbered { return "\(mapping.flag) #\(index + 1)" }
    return mapping.flag
  }
}
