import Foundation

extension ActivityReceipt {
  /// The `arguments` text a receipt stores for a call's raw arguments: the canonical
  /// (sorted-key) JSON of an object, `{}` for none or `null` (which tools read as none), and any
  /// other value — an array, a string, a
  /// number, which a caller of the library may pass and the tool then refuses — wrapped as
  /// `{"notAnObject":true,"value":…}`, so that every receipt's `arguments` is a JSON object.
  /// Not yet cut to the receipt's bound (the agent runtime's tool executor does that).
  /// - Parameter value: the call's arguments as given; nil when it gave none.
  package static func argumentsText(_ value: JSONValue?) -> String {
    switch value {
    case nil, .null?: "{}"
    case .object?: value?.jsonString(sortedKeys: true) ?? "{}"
    case let other?: JSONValue.object(["notAnObject": true, "value": other]).jsonString(sortedKeys: true)
    }
  }

  /// The receipt as this build would have written it, for records that an earlier build or a
  /// legacy workspace left otherwise (an import normalizes them so, see Docs/ExportFormat.md):
  /// - `arguments` that are JSON but not an object (an earlier build recorded a library caller's
  ///   non-object arguments as given) are wrapped as ``argumentsText(_:)`` wraps them; text that
  ///   is not JSON is left as it is (an import refuses it);
  /// - a `finishedAt` earlier than `startedAt` (a legacy file's receipt, or the wall clock set
  ///   back during a call) becomes `startedAt`: a call cannot end before it starts.
  ///
  /// Idempotent; a receipt this build writes is returned unchanged.
  package func normalized() -> ActivityReceipt {
    var out = self
    if finishedAt < startedAt { out.finishedAt = startedAt }
    if let value = try? JSONParser().parse(arguments) {
      if case .object = value {} else { out.arguments = Self.argumentsText(value) }
    }
    return out
  }
}
