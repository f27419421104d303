import ContinuityKit

/// Failures of the command-line layer, with their documented exit codes.
enum CLIError: Error, Sendable, Equatable {
  /// Bad arguments. Exit 2.
  case usage(String)
  /// A value given for an option (or an enumerated argument) that is missing, malformed or
  /// not one of its choices: `--limit abc`, `--priority urgent`, `--limit` without a value.
  /// Exit 2, as ``usage(_:)``; a `--json` error document names `field` (the option without its
  /// dashes, e.g. `limit`), as it does for a validation error.
  case invalidValue(String, field: String)
  /// An input file problem (unreadable, a symbolic link loop, not UTF-8, a refused legacy
  /// file). Exit 4.
  case input(String)
  /// A path or record named on the command line does not exist (an input file named by a
  /// positional or an option alike). Exit 3.
  case notFound(String)
  /// The workspace database exists but holds no schema yet (a first run interrupted before its
  /// first step): no workspace for a command that only reads. Exit 3, as ``notFound(_:)``.
  case noWorkspaceYet(String)
}

/// A change that was not applied because its confirmation was declined or impossible, with its
/// plan, so that a `--json` error document shows what would have changed. Exit 1.
struct UnconfirmedPlan: Error {
  /// Why, e.g. `the deletion needs confirmation: run it in a terminal, or pass --yes; …`.
  var message: String
  /// The deletion or erase plan that was shown and not applied.
  var plan: any Encodable & Sendable
}

/// A change refused for a reason its plan shows (an import with conflicts under the default
/// `--on-conflict refuse`), so that a `--json` error document carries the plan beside the
/// error, as for an ``UnconfirmedPlan``. Exit code, kind and field are the wrapped error's.
struct RefusedPlan: Error {
  /// Why, e.g. ``KnowledgeEngine/conflictError(_:)``.
  var error: any Error
  /// The plan that was not applied.
  var plan: any Encodable & Sendable
}

/// An agent run (`dolphin ask`) in which a call was denied, cancelled or failed, with the run's
/// document (route, answer, receipts), so that a `--json` error document shows what executed
/// before the failure. Exit code and error kind as given.
struct FailedRun: Error {
  var code: Int32
  /// The error kind of the JSON document: `aborted`, `notFound` or `validation`.
  var kind: String
  /// E.g. `knowledge_capture was denied: approval needed: run in a terminal or pass --yes`.
  var message: String
  /// The run's document; every receipt of the run is in it.
  var run: any Encodable & Sendable
  /// The argument of the failed call that was refused, for a call refused for its arguments
  /// (`arguments.title`), as a validation error of any other command names its field.
  var field: String? = nil
}

/// Exit codes of `dolphin`.
public enum ExitCode {
  public static let success: Int32 = 0
  /// The user declined, or confirmation was needed without a terminal and without `--yes`.
  public static let aborted: Int32 = 1
  public static let usage: Int32 = 2
  /// A record id, a file or path named on the command line, or a workspace that does not exist.
  public static let notFound: Int32 = 3
  /// Input over a bound, malformed ids, a full collection, a refused legacy file.
  public static let validation: Int32 = 4
  /// SQLite or filesystem errors, a damaged or read-only (newer-schema) workspace, and
  /// concurrency: a workspace busy with another process's long write, or changed by another
  /// process between a shown plan (import, erase, deletion) and its application.
  public static let storage: Int32 = 5
  /// The command did its work but could not read every stored record: `export` wrote the
  /// records it could decode as usual and each one it could not, as stored, in the document's
  /// `unreadable` section (review 29-a, 8). Distinct from 5, after which nothing was written.
  public static let partial: Int32 = 6
}

extension CLIError {
  /// `--priority 'urgent' is not one of: low, normal, high, critical`, with a did-you-mean
  /// hint when a choice is close; `field` is named in a `--json` error document.
  static func notOneOf(_ name: String, _ value: String, allowed: [String], field: String) -> CLIError {
    let hint = ArgumentParser.nearest(value, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
    return .invalidValue(
      "\(name) \(quotedValue(value, cutAt: 40)) is not one of: \(allowed.joined(separator: ", "))\(hint)",
      field: field)
  }

  /// The field a `--json` error names for a value given as `name`: the option without its
  /// dashes (`--priority` → `priority`), or the argument's name (`kind`).
  static func field(named name: String) -> String {
    name.hasPrefix("--") ? String(name.dropFirst(2)) : name
  }

  var message: String {
    switch self {
    case .usage(let m), .invalidValue(let m, _), .input(let m), .notFound(let m), .noWorkspaceYet(let m): return m
    }
  }
}

/// A value the user gave, for quoting into an error message that must stay one line: each line
/// break and tab is written as an escape, as ``Limits/escaped(_:)`` writes it (`'bad\nid'`);
/// other controls are left for ``inert(_:)`` to show (`␛`) when the message is printed.
/// - Parameter value: the value as given on the command line.
func quotedValue(_ value: String) -> String {
  escapingLineBreaks(value)
}

/// A value the user gave, shown unquoted as ``quotedValue(_:)`` shows it (line breaks and tabs
/// escaped), and, longer than ``Limits/shownPathLength`` characters, cut as
/// ``Limits/shownPath(_:)`` cuts a path: its start, `…` and its length (`/tmp/xx… (100005
/// characters)`). For a path, or a word of a suggested command line, where a 100,000-character
/// argument would otherwise make a 100 KB message.
/// - Parameter value: the value as given on the command line.
func shownValue(_ value: String) -> String {
  escapingLineBreaks(Limits.shownPath(value))
}

/// A value the user gave, quoted and cut for an error message: `'value'`, or, longer than
/// `limit` characters, `'its first limit characters…' (N characters)` — so that a cut value is
/// never shown as if it were all that was given (``Limits/quoted(_:cutAt:escaping:)``). Line
/// breaks and tabs are escaped as ``quotedValue(_:)`` escapes them.
/// - Parameters:
///   - value: the value as given on the command line.
///   - limit: how many characters of it to show.
func quotedValue(_ value: String, cutAt limit: Int) -> String {
  Limits.quoted(value, cutAt: limit, escaping: escapingLineBreaks)
}

/// Whether `text` is a whole number as written (signs, then ASCII digits), whether or not it fits
/// `Int`: one that does not is out of range, not malformed.
func isWholeNumberText(_ text: String) -> Bool {
  let digits = text.drop(while: { $0 == "-" || $0 == "+" })
  return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
}

/// A whole number the user gave that does not fit `Int`, as an out-of-range error shows it: as
/// given, unquoted, as a number that fits is shown (`--limit is 5000000000`, `knowledgeItemLimit
/// is 99999999999999999999999`); longer than 60 characters, cut and quoted as
/// ``quotedValue(_:cutAt:)`` cuts it, so that a cut value is never shown as if it were whole.
func shownWholeNumber(_ text: String) -> String {
  text.count > 60 ? quotedValue(text, cutAt: 60) : text
}

/// `text` with each line break (`\n`, `\r\n`, U+2028, …) and tab written as an escape
/// (``Limits/escaped(_:)``), so that it prints as one line; `text` itself when it holds none.
func escapingLineBreaks(_ text: String) -> String {
  guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
  var out = ""
  for character in text {
    if character.isNewline || character == "\t" { out += Limits.escaped(String(character)) } else { out.append(character) }
  }
  return out
}

/// Maps any error to (exit code, error kind, message).
func classify(_ error: any Error) -> (code: Int32, kind: String, message: String) {
  switch error {
  case let e as CLIError:
    switch e {
    case .usage(let m), .invalidValue(let m, _): return (ExitCode.usage, "usage", m)
    case .input(let m): return (ExitCode.validation, "input", m)
    case .notFound(let m), .noWorkspaceYet(let m): return (ExitCode.notFound, "notFound", m)
    }
  case let e as WorkspaceError:
    switch e {
    case .notFound, .noWorkspace: return (ExitCode.notFound, "notFound", e.description)
    // An id the user named that no record has is "not found", wherever it was named.
    case .validation(let v) where v.missingRecord != nil: return (ExitCode.notFound, "notFound", e.description)
    case .validation, .capacity: return (ExitCode.validation, "validation", e.description)
    case .busy: return (ExitCode.storage, "busy", e.description)
    // Another process wrote between the plan shown and its application: a concurrency
    // failure like `busy`, not bad input (exit 4).
    case .concurrentChange: return (ExitCode.storage, "concurrentChange", e.description)
    case .storage, .damaged, .notAWorkspace, .migrationTableRenamed, .fileSystem, .readOnly, .newerSchema, .notAtPath: return (ExitCode.storage, "storage", e.description)
    }
  case let e as ValidationError where e.missingRecord != nil:
    return (ExitCode.notFound, "notFound", e.message)
  case let e as ValidationError:
    return (ExitCode.validation, "validation", e.message)
  case let e as UnconfirmedPlan:
    return (ExitCode.aborted, "aborted", e.message)
  case let e as RefusedPlan:
    return classify(e.error)
  case let e as FailedRun:
    return (e.code, e.kind, e.message)
  case let e as ReportedFailure:
    return (e.code, "reported", e.message)
  case let e as LegacyImportError:
    return (ExitCode.validation, "legacyImport", e.description)
  case let e as ExportDocumentError:
    return (ExitCode.validation, "exportDocument", e.description)
  default:
    return (ExitCode.storage, "error", String(describing: error))
  }
}

/// A failure whose report was already printed (no extra JSON document is written): with
/// `--json`, the command's own document carries it as `error` (``Console/printJSON(_:failure:)``).
struct ReportedFailure: Error {
  var code: Int32
  var message: String

  /// The `kind` named in the JSON `error` object, from the exit code as ``classify(_:)`` names
  /// other errors: `notFound` (3), `validation` (4), `storage` (5); `partial` (6).
  var kind: String {
    switch code {
    case ExitCode.notFound: "notFound"
    case ExitCode.validation: "validation"
    case ExitCode.storage: "storage"
    case ExitCode.partial: "partial"
    default: "error"
    }
  }
}
