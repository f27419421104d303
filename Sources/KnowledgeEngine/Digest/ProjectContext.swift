import Foundation

/// The rule-based digest of the workspace as computed on request: its sections and how they
/// were made, with no id and no time, so the same workspace gives a byte-identical value (and
/// JSON) in any process, locale and time zone.
public struct ProjectContext: Codable, Sendable, Equatable {
  /// Always `rule-based`: deterministic templates, no model.
  public var method: String
  /// ``DigestBuilder/algorithm``.
  public var algorithm: String
  /// ``DigestBuilder/version``.
  public var algorithmVersion: String
  /// The bounded sections; every line carries its evidence ids.
  public var sections: DigestSections

  /// Wraps sections computed by ``DigestBuilder``.
  public init(sections: DigestSections) {
    self.method = DigestBuilder.method
    self.algorithm = DigestBuilder.algorithm
    self.algorithmVersion = DigestBuilder.version
    self.sections = sections
  }

  /// Every evidence id cited, in first-seen order (sections in declaration order).
  public var evidenceIDs: [UUID] { sections.evidenceIDs }
}
