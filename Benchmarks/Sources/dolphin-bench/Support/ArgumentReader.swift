/// A small reader of `--name value`, `--name=value` and `--flag` options.
struct ArgumentReader {
  private var arguments: [String]

  /// Creates a reader over a subcommand's arguments (after the subcommand name).
  init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// Removes and returns the value of the last `--name value` or `--name=value`, if any.
  ///
  /// - Parameter name: The option, with its dashes: `--corpus`.
  /// - Returns: The value, or nil when the option is absent.
  /// - Throws: ``UsageError`` when the option is last and has no value.
  mutating func option(_ name: String) throws -> String? {
    var value: String? = nil
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == name {
        guard index + 1 < arguments.count else {
          throw UsageError(message: "option \(name) needs a value")
        }
        value = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
      } else if argument.hasPrefix(name + "=") {
        value = String(argument.dropFirst(name.count + 1))
        arguments.remove(at: index)
      } else {
        index += 1
      }
    }
    return value
  }

  /// Removes every `--name` and returns whether there was one.
  ///
  /// - Parameter name: The flag, with its dashes: `--verbose`.
  /// - Returns: Whether the flag was given.
  mutating func flag(_ name: String) -> Bool {
    let count = arguments.count
    arguments.removeAll { $0 == name }
    return arguments.count != count
  }

  /// Checks that every argument was read.
  ///
  /// - Throws: ``UsageError`` naming the first argument no option took.
  func finish() throws {
    if let unexpected = arguments.first {
      throw UsageError(message: "unexpected argument '\(unexpected)'")
    }
  }
}
