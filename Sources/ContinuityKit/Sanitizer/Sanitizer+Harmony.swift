extension Sanitizer {
  /// The tokens of OpenAI's harmony response format (gpt-oss) that frame a message:
  /// `<|start|>role<|channel|>name<|constrain|>…<|message|>content<|end|>`, a reply ending with
  /// `<|return|>`, a tool call with `<|call|>`.
  static let harmonyTokens = ["start", "channel", "constrain", "message", "end", "return", "call"]

  /// The text a reader is meant to see of a model reply in OpenAI's harmony format: the
  /// contents of its messages on the `final` channel, in order, separated by a blank line. The
  /// `analysis` channel (hidden reasoning) and the `commentary` channel (tool calls and their
  /// preambles), and every header, are left out, as ``removingTagBlocks(named:from:)`` leaves out
  /// a `<think>` block (review 31-a, 3: `<|channel|>analysis<|message|>secret<|end|><|start|>
  /// assistant<|channel|>final<|message|>visible` was shown and stored whole).
  ///
  /// A reply is read as harmony only when it holds a `<|channel|>` token; any other reply comes
  /// back as it was (after steps 1 and 2 of ``sanitize(_:)``). Tokens are read as ``sanitize(_:)``
  /// reads a pipe token spelled exactly: ASCII case-insensitive, past default-ignorable
  /// characters, in ASCII or fullwidth brackets and bars (`<｜channel｜>`). A message's header
  /// runs from the start of the reply, `<|start|>`, or the end of the message before, to its
  /// `<|message|>`; its channel is the first word after `<|channel|>` in the header. Its
  /// content runs to the next `<|end|>`, `<|return|>`, `<|call|>`, `<|start|>` or `<|channel|>`,
  /// or to the end of the reply (a reply cut short). A reply with no `final` message gives
  /// empty text.
  ///
  /// - Parameter text: A model's raw output.
  /// - Returns: The `final` channel's text, after steps 1 and 2 of ``sanitize(_:)``; its
  ///   delimiters are not yet neutralized, so sanitize it before use.
  /// - Complexity: O(*n*) in the length of `text`.
  package static func harmonyFinalText(from text: String) -> String {
    let scalars = visibleNFCScalars(of: text)
    guard scalars.contains(where: DelimiterScanner.isOpeningBracket) else { return string(scalars) }
    let table = DelimiterScanner.Table(
      harmonyTokens.map { Delimiter(.pipeToken, $0, isVocabularyToken: true, isExactSpelling: true) })
    let tokens = DelimiterScanner.matches(in: scalars, table: table).filter { !$0.isClosing }
    guard tokens.contains(where: { $0.delimiter.name == "channel" }) else { return string(scalars) }

    var finals: [ArraySlice<Unicode.Scalar>] = []
    var content: Int?  // where the current message's content starts, while one is read
    var channel = ""  // the channel of the message being read
    func endContent(at end: Int) {
      if let start = content, channel == "final" { finals.append(scalars[start..<end]) }
      content = nil
    }
    for token in tokens {
      let start = token.brackets[0]
      let end = (token.brackets.last ?? start) + 1
      switch token.delimiter.name {
      case "start":
        endContent(at: start)
        channel = ""
      case "channel":
        // A `<|channel|>` in content starts the next message's header, `<|start|>` or not.
        endContent(at: start)
        channel = channelName(in: scalars, from: end)
      case "constrain":
        break  // part of the header (`<|constrain|>json`)
      case "message":
        // Only the first `<|message|>` after a header opens its content; one inside content
        // is text, which sanitizing neutralizes.
        if content == nil { content = end }
      default:  // end, return, call
        endContent(at: start)
        channel = ""
      }
    }
    endContent(at: scalars.count)
    let joined = finals.map { Array($0) }.joined(separator: Array("\n\n".unicodeScalars))
    return string(Array(joined))
  }

  /// The channel name after a `<|channel|>` ending before `offset`: its first word (up to
  /// whitespace or a bracket), ASCII-lowercased; `commentary` in `commentary to=functions.x`.
  private static func channelName(in scalars: [Unicode.Scalar], from offset: Int) -> String {
    var name = String.UnicodeScalarView()
    var index = offset
    while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    while index < scalars.count, !scalars[index].properties.isWhitespace,
      !DelimiterScanner.isOpeningBracket(scalars[index]), name.count < 32
    {
      let scalar = DelimiterScanner.compatibilityFolded(scalars[index])
      name.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 0x20) ?? scalar : scalar)
      index += 1
    }
    return String(name)
  }
}
