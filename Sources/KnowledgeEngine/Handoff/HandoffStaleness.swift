import ContinuityKit
import Foundation

/// Why a handoff may no longer say where the work stands, by the stale-handoff insight's test
/// (``InsightRule/staleHandoff``), and what clears it.
///
/// A handoff is stale once any knowledge item was captured after it, once a knowledge item it
/// carries was edited after it (review 31-a, 2: its summary and next steps were written against
/// the earlier text, which the edit may reverse), or once it is older than
/// ``InsightThresholds/staleHandoffDays`` days, compared as a duration (that many times 24
/// hours). The insight applies the test to the active handoff; a restore brief applies it to
/// the handoff just restored (``KnowledgeEngine/staleness(of:)``), which is then the active
/// one, so that the brief says at once what the next `insights` run would.
public struct HandoffStaleness: Sendable, Equatable, Codable {
  /// What clears the insight (each face names its own command or tool for it).
  public enum Remedy: String, Sendable, Equatable, Codable {
    /// Restore ``HandoffStaleness/newerHandoffID``, the newest handoff, made after this one and
    /// not stale itself.
    case restoreNewer
    /// Create a new handoff marked active (no handoff was made after this one, or the newest is
    /// stale too).
    case createActive
  }

  /// The handoff tested.
  public var handoffID: UUID
  /// Knowledge items captured after the handoff was made.
  public var capturedAfter: Int
  /// Knowledge items the handoff carries that were edited after it was made (created before
  /// it, `updatedAt` later).
  public var editedAfter: Int
  /// The handoff's age when tested, in whole seconds (0 for one dated in the future).
  public var ageSeconds: Int
  /// The age past which a handoff is stale (``InsightThresholds/staleHandoffDays``), in days.
  public var staleAfterDays: Int
  /// Whether the handoff is older than ``staleAfterDays`` days.
  public var isOld: Bool
  /// `high` when it is both old and followed by captures or edits of what it carries, else
  /// `normal`, as the insight ranks it.
  public var priority: Priority
  /// Why, as the insight says it: `it is 15 days and 2 hours old (older than 14 days), 3
  /// knowledge items were captured after it and 1 knowledge item it carries was edited after it`.
  public var reason: String
  /// What clears it: restoring the newer handoff, or creating one marked active; deactivating
  /// this one clears it too.
  public var remedy: Remedy
  /// With ``Remedy/restoreNewer``: the newest handoff, made after this one.
  public var newerHandoffID: UUID?
  /// With ``Remedy/restoreNewer``: that handoff's focus, as stored.
  public var newerHandoffFocus: String?

  /// The test itself, shared by the insight rule and ``KnowledgeEngine/staleness(of:)``.
  /// - Parameters:
  ///   - handoff: the handoff tested.
  ///   - capturedAfter: how many knowledge items were captured after it.
  ///   - editedAfter: how many knowledge items it carries were edited after it (0 by default).
  ///   - newest: the handoff to advise restoring instead: the newest by creation when it is not
  ///     stale itself (``KnowledgeEngine/freshNewerHandoff(than:now:thresholds:_:)``), or nil. It
  ///     is advised only when it is not `handoff` and was made at or after it.
  ///   - now: the time of the test.
  ///   - thresholds: the insight thresholds (``InsightThresholds/staleHandoffDays``).
  /// - Returns: nil when the handoff is not stale.
  static func evaluate(
    _ handoff: Handoff, capturedAfter: Int, editedAfter: Int = 0, newest: Handoff?, now: Date,
    thresholds: InsightThresholds = .v1
  ) -> HandoffStaleness? {
    // Compared as durations: "older than 14 days" holds at 14 days and 1 second.
    let age = now.timeIntervalSince(handoff.createdAt)
    let old = age > Double(thresholds.staleHandoffDays) * 86_400
    guard capturedAfter > 0 || editedAfter > 0 || old else { return nil }
    var reasons: [String] = []
    if old { reasons.append("it is \(InsightRules.ageText(age)) old (older than \(thresholds.staleHandoffDays) days)") }
    if capturedAfter > 0 {
      reasons.append(
        capturedAfter == 1 ? "1 knowledge item was captured after it" : "\(capturedAfter) knowledge items were captured after it")
    }
    if editedAfter > 0 {
      reasons.append(
        editedAfter == 1
          ? "1 knowledge item it carries was edited after it" : "\(editedAfter) knowledge items it carries were edited after it")
    }
    // Creating a handoff does not make it active, so "create a new one" alone changed nothing
    // while a newer one existed (review 20-b, 4): that one is named instead.
    let newer = newest.flatMap { $0.id != handoff.id && $0.createdAt >= handoff.createdAt ? $0 : nil }
    return HandoffStaleness(
      handoffID: handoff.id, capturedAfter: capturedAfter, editedAfter: editedAfter, ageSeconds: Int(max(0, age)),
      staleAfterDays: thresholds.staleHandoffDays, isOld: old,
      priority: old && capturedAfter + editedAfter > 0 ? .high : .normal,
      reason: Self.listed(reasons), remedy: newer == nil ? .createActive : .restoreNewer,
      newerHandoffID: newer?.id, newerHandoffFocus: newer?.focus)
  }

  /// `a`, `a and b`, `a, b and c`.
  static func listed(_ parts: [String]) -> String {
    parts.count <= 2 ? parts.joined(separator: " and ") : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
  }

  /// What clears it, in the CLI's commands, as the stale-handoff insight advises: `restore the
  /// newer handoff "F" (id N: `dolphin handoff restore N`) or deactivate this one (`dolphin
  /// handoff deactivate`).`, or with no newer handoff `create a new handoff and mark it active
  /// (`dolphin handoff create --focus TEXT --activate`) or deactivate this one (…).`
  public var commandAdvice: String {
    let deactivate = "or deactivate this one (`\(command: "dolphin handoff deactivate")`)."
    if remedy == .restoreNewer, let id = newerHandoffID?.uuidString {
      return "restore the newer handoff \(InsightRules.quote(newerHandoffFocus ?? "")) (id \(id): `\(command: "dolphin handoff restore \(id)")`) "
        + deactivate
    }
    return "create a new handoff and mark it active (`\(command: "dolphin handoff create --focus TEXT --activate")`) \(deactivate)"
  }
}
