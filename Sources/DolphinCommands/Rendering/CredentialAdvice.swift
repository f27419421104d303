import ContinuityKit

/// What a command's credential refusal tells the user to do besides removing the secret.
///
/// The library refuses text that looks like a credential and marks the error with
/// ``ValidationError/credential``; its message offers no override, since only the command knows
/// whether it has one. A command that takes `--allow-credentials` says to use it; one that does
/// not (`ask`) names the commands that do, so that the advice is always something the user can
/// type.
extension CommandSpec {
  /// Whether this command takes `--allow-credentials`.
  var allowsCredentials: Bool { options.contains { $0.name == Commands.allowCredentials.name } }

  /// `error` with this command's advice appended to its message, when it is a credential
  /// refusal; otherwise `error` unchanged.
  func advisingOnCredentials(in error: any Error) -> any Error {
    switch error {
    case let e as ValidationError where e.credential != nil:
      return advisingOnCredentials(in: e)
    case WorkspaceError.validation(let e) where e.credential != nil:
      return WorkspaceError.validation(advisingOnCredentials(in: e))
    default:
      return error
    }
  }

  func advisingOnCredentials(in error: ValidationError) -> ValidationError {
    var advised = error
    advised.message += credentialAdvice
    return advised
  }

  /// `, or store it deliberately with --allow-credentials` for a command that takes the flag;
  /// otherwise `; to store it deliberately, use --allow-credentials with `dolphin capture`, …`
  /// naming every command that takes it, in `dolphin --help` order.
  var credentialAdvice: String {
    if allowsCredentials { return ", or store it deliberately with --\(Commands.allowCredentials.name)" }
    let commands = Commands.all.map(\.spec).filter(\.allowsCredentials).map { "`dolphin \($0.name)`" }
    let list = commands.count > 1 ? commands.dropLast().joined(separator: ", ") + " or " + (commands.last ?? "") : commands.joined()
    return "; to store it deliberately, use --\(Commands.allowCredentials.name) with \(list)"
  }
}
