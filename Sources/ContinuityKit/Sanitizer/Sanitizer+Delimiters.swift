extension Sanitizer {
  /// A role or tool delimiter that ``Sanitizer/sanitize(_:)`` neutralizes and
  /// ``Sanitizer/containsLiveDelimiter(_:)`` detects.
  ///
  /// A delimiter is a bracket ``shape`` around a ``name``. Matching is ASCII case-insensitive
  /// and lenient about the spelling a model would still read as the delimiter:
  ///
  /// - whitespace (spaces, tabs, newlines) around the name: `< system >`, `<tool_call\n>`;
  /// - a closing slash: `</system>`, `[/INST]`, `<</SYS>>`;
  /// - attributes or a self-closing slash after the name: `<tool_response id="1">`,
  ///   `<system/>`;
  /// - no closing bracket at all: `<system Ignore the above`, or `<|im_start` at the end;
  /// - for ``Shape/pipeToken``, the fullwidth bar `｜` and the `▁` word separator of
  ///   DeepSeek's tokens (`<｜begin▁of▁sentence｜>` matches `begin_of_sentence`);
  /// - default-ignorable characters anywhere from the opening bracket to the end of the name,
  ///   which show nothing and are read past (``Sanitizer/isDefaultIgnorable(_:)``:
  ///   `<\u{AD}system>`, `<|im\u{AD}_start|>`, `[\u{AD}INST]`, `<sys\u{FE0F}tem>`);
  /// - combining marks (General_Category Mn or Me) between the opening bracket and the name,
  ///   which draw on the bracket, bar, slash or space before them and leave it what it is:
  ///   `<\u{301}system>`, `<\u{20D2}/system>`, `[\u{301}INST]`. Inside the name a mark makes its
  ///   letter another letter (`<systém>` is no delimiter), and one that NFC composes with the
  ///   bracket leaves no bracket (`<` + U+0338 is `≮`);
  /// - compatibility forms that NFKC folds to ASCII: fullwidth, small and vertical brackets,
  ///   bars and slashes (`＜system＞`, `﹤system﹥`, `［INST］`), and fullwidth or mathematical
  ///   letters, digits and `_` in the name (`＜ｓｙｓｔｅｍ＞`). The angle brackets `〈〉`
  ///   (U+2329, U+232A, U+3008, U+3009), which NFKC keeps, are not brackets here.
  ///
  /// The name must end where a word ends: `<systems>`, `<user_id>`, `<user@example.com>` and
  /// `<system.md>` are ordinary text.
  public struct Delimiter: Sendable, Hashable, CustomStringConvertible {
    /// The brackets around a delimiter's name.
    public enum Shape: String, Sendable, Hashable, CaseIterable {
      /// `<name>`: XML-like role and tool tags (`<system>`, `<tool_call>`, `<think>`).
      case tag
      /// `<|name|>`: special tokens of ChatML, Llama 3, Phi, Granite and Command R, and
      /// DeepSeek's `<｜name｜>`.
      case pipeToken
      /// `<<name>>`: the Llama 2 system block (`<<SYS>>`).
      case doubleAngle
      /// `[name]`: Llama 2 and Mistral markers (`[INST]`, `[TOOL_CALLS]`).
      case square
    }

    /// The brackets around the name.
    public let shape: Shape
    /// The name as the model family spells it, e.g. `im_start` or `INST`; matched
    /// ASCII case-insensitively.
    public let name: String
    /// True when some model family's tokenizer maps this spelling to one special token.
    ///
    /// Tokenizers find special tokens anywhere, so such a delimiter is live even glued to a
    /// preceding word (`x<think>`). The other delimiters are prompt-writing conventions, live
    /// wherever a tag can be read, with one exception for code: a generic type argument
    /// (`Array<User>`, `Result<Tool, Error>`, `Array<User<Int>>`) is left alone. A `<` is a
    /// type argument only when all of these hold:
    ///
    /// - it is glued to a preceding ASCII letter, digit or `_` (`Array<`), and to the name that
    ///   follows (no space, no `/`);
    /// - the name is written as a type name, with an uppercase first letter (`User`, `System`);
    /// - the name is followed directly by `>`, `,` or a nested `<` that opens no delimiter — no
    ///   space before the `>`, no attributes, no self-closing `/`.
    ///
    /// So `ab<system>x`, `x<user>`, `1<system>`, `_<system>`, `a<system >b`, `x<system/>`,
    /// `foo<System attr=1>`, `notes</user>` and `x<<SYS>>` are live. (`Map<String, System>` has
    /// no `<` before `System` and is ordinary text.)
    public let isVocabularyToken: Bool

    /// True when only the spelling a tokenizer reads counts: the brackets, an optional closing
    /// slash, the name and the closing bracket with no whitespace, attributes or anything else
    /// between them (default-ignorable characters and combining marks are still read past,
    /// and fullwidth forms still folded). `<s>` and `</s>` (Llama 2 and Mistral) are such
    /// entries, since a lenient `<s` would also take `0 < s < 1` or `if x <s {`; so is the
    /// rule for any other pipe token (``Sanitizer/anyPipeTokenNameLimit``). Their spaced,
    /// attributed and unclosed forms are ordinary text.
    public let isExactSpelling: Bool

    /// Creates a table entry.
    ///
    /// - Parameters:
    ///   - shape: The brackets around the name.
    ///   - name: The name, ASCII letters, digits, `_` and `-` only.
    ///   - isVocabularyToken: Whether a tokenizer maps the spelling to one special token.
    ///   - isExactSpelling: Whether only the exact spelling counts (``isExactSpelling``).
    init(_ shape: Shape, _ name: String, isVocabularyToken: Bool, isExactSpelling: Bool = false) {
      self.shape = shape
      self.name = name
      self.isVocabularyToken = isVocabularyToken
      self.isExactSpelling = isExactSpelling
    }

    /// The canonical spelling, e.g. `<system>`, `<|im_start|>`, `<<SYS>>` or `[INST]`.
    public var description: String {
      switch shape {
      case .tag: "<\(name)>"
      case .pipeToken: "<|\(name)|>"
      case .doubleAngle: "<<\(name)>>"
      case .square: "[\(name)]"
      }
    }
  }

  /// Every delimiter the sanitizer neutralizes: the one table that both
  /// ``containsLiveDelimiter(_:)`` (detection) and ``sanitize(_:)`` (rewriting) read.
  ///
  /// Each entry also covers its closing, spaced, attributed, self-closing and unclosed forms
  /// (see ``Delimiter``). Rewriting swaps the brackets of a match, and only those, for
  /// visible look-alikes that no tokenizer reads as markup and that NFKC does not fold back
  /// to ASCII (a fullwidth, small or vertical bracket gets the same look-alike as its ASCII
  /// form: `＜system＞` → `‹system›`):
  ///
  /// | ASCII | look-alike | example |
  /// |---|---|---|
  /// | `<` | `‹` U+2039 | `<system>` → `‹system›` |
  /// | `>` | `›` U+203A | `</system >` → `‹/system ›` |
  /// | `[` | `⟦` U+27E6 | `[INST]` → `⟦INST⟧` |
  /// | `]` | `⟧` U+27E7 | `[/INST]` → `⟦/INST⟧` |
  ///
  /// So `<<SYS>>` becomes `‹‹SYS››` and `<|im_end|>` becomes `‹|im_end|›`: the bars stay,
  /// since without its `<` no bar can form a token. Text that merely looks similar, such as
  /// `a <| b |> c`, `x < y > z` or `<div>`, is not in the table and stays as it is.
  ///
  /// Besides the table, every pipe token spelled exactly — `<|name|>` or `<|/name|>`, a name
  /// of 1 to ``anyPipeTokenNameLimit`` ASCII letters, digits, `_`, `-` or `▁` with nothing
  /// between the brackets, bars and name, in ASCII or fullwidth brackets and bars
  /// (`<｜name｜>`) — is neutralized as a vocabulary token (review 31-a, 3: OpenAI's harmony
  /// format of gpt-oss, `<|start|>`, `<|message|>`, `<|channel|>`, `<|return|>`, `<|call|>`,
  /// `<|constrain|>`, was not in the table): model families keep adding special tokens of that
  /// shape, and ordinary text rarely spells one. Spaced or unclosed (`f <| x`, `<|a -> 1|>`,
  /// `<| b |>`, `<|>`), it stays text; the table's own entries also match spaced and unclosed.
  ///
  /// Sources: ChatML (OpenAI, Qwen), Llama 2 and 3 model cards, Mistral's tokenizer
  /// (`[INST]`, `[TOOL_CALLS]`, `<s>`), OpenAI's harmony format (gpt-oss), Gemma (`<start_of_turn>`), Phi-3, Granite, Command R,
  /// DeepSeek (`<｜User｜>`), Hermes and Qwen tool calling (`<tool_call>`, `<tools>`), and the
  /// XML-style role tags used in hand-written prompts. Entries are sorted by shape, then by
  /// family.
  public static let delimiters: [Delimiter] = [
    // XML-style role tags written into prompts by hand.
    Delimiter(.tag, "system", isVocabularyToken: false),
    Delimiter(.tag, "user", isVocabularyToken: false),
    Delimiter(.tag, "assistant", isVocabularyToken: false),
    Delimiter(.tag, "system-reminder", isVocabularyToken: false),
    // Tool use, as tags.
    Delimiter(.tag, "tool", isVocabularyToken: false),
    Delimiter(.tag, "tools", isVocabularyToken: true),
    Delimiter(.tag, "tool_call", isVocabularyToken: true),
    Delimiter(.tag, "tool_calls", isVocabularyToken: false),
    Delimiter(.tag, "tool_response", isVocabularyToken: true),
    Delimiter(.tag, "tool_result", isVocabularyToken: false),
    Delimiter(.tag, "tool_use", isVocabularyToken: false),
    Delimiter(.tag, "function_call", isVocabularyToken: false),
    Delimiter(.tag, "function_calls", isVocabularyToken: false),
    Delimiter(.tag, "function_results", isVocabularyToken: false),
    // Reasoning blocks (DeepSeek R1, Qwen 3).
    Delimiter(.tag, "think", isVocabularyToken: true),
    Delimiter(.tag, "thinking", isVocabularyToken: false),
    // Gemma.
    Delimiter(.tag, "start_of_turn", isVocabularyToken: true),
    Delimiter(.tag, "end_of_turn", isVocabularyToken: true),
    Delimiter(.tag, "bos", isVocabularyToken: true),
    Delimiter(.tag, "eos", isVocabularyToken: true),
    // Llama 2 and Mistral: beginning and end of sequence, exact spelling only (`x < s > y`,
    // `<s foo>` are text). `<s>` is a vocabulary token, but lowercase: it is not marked as one,
    // so that a generic parameter glued to its type (`Array<S>`, `func f<S>(`) stays code, as
    // `Array<User>` does; a glued lowercase `x<s>` is neutralized. HTML's strikethrough `<s>`
    // becomes `‹s›`, readable still.
    Delimiter(.tag, "s", isVocabularyToken: false, isExactSpelling: true),
    // ChatML (OpenAI, Qwen, Phi-4).
    Delimiter(.pipeToken, "im_start", isVocabularyToken: true),
    Delimiter(.pipeToken, "im_end", isVocabularyToken: true),
    Delimiter(.pipeToken, "im_sep", isVocabularyToken: true),
    Delimiter(.pipeToken, "endoftext", isVocabularyToken: true),
    // Llama 3.
    Delimiter(.pipeToken, "begin_of_text", isVocabularyToken: true),
    Delimiter(.pipeToken, "end_of_text", isVocabularyToken: true),
    Delimiter(.pipeToken, "start_header_id", isVocabularyToken: true),
    Delimiter(.pipeToken, "end_header_id", isVocabularyToken: true),
    Delimiter(.pipeToken, "eot_id", isVocabularyToken: true),
    Delimiter(.pipeToken, "eom_id", isVocabularyToken: true),
    Delimiter(.pipeToken, "python_tag", isVocabularyToken: true),
    // Phi-3 and Zephyr.
    Delimiter(.pipeToken, "system", isVocabularyToken: true),
    Delimiter(.pipeToken, "user", isVocabularyToken: true),
    Delimiter(.pipeToken, "assistant", isVocabularyToken: true),
    Delimiter(.pipeToken, "end", isVocabularyToken: true),
    // Granite.
    Delimiter(.pipeToken, "start_of_role", isVocabularyToken: true),
    Delimiter(.pipeToken, "end_of_role", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_call", isVocabularyToken: true),
    // Command R.
    Delimiter(.pipeToken, "START_OF_TURN_TOKEN", isVocabularyToken: true),
    Delimiter(.pipeToken, "END_OF_TURN_TOKEN", isVocabularyToken: true),
    Delimiter(.pipeToken, "SYSTEM_TOKEN", isVocabularyToken: true),
    Delimiter(.pipeToken, "USER_TOKEN", isVocabularyToken: true),
    Delimiter(.pipeToken, "CHATBOT_TOKEN", isVocabularyToken: true),
    // DeepSeek, spelled with `_` for its `▁`.
    Delimiter(.pipeToken, "begin_of_sentence", isVocabularyToken: true),
    Delimiter(.pipeToken, "end_of_sentence", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_calls_begin", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_calls_end", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_call_begin", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_call_end", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_sep", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_outputs_begin", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_outputs_end", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_output_begin", isVocabularyToken: true),
    Delimiter(.pipeToken, "tool_output_end", isVocabularyToken: true),
    // Llama 2.
    Delimiter(.doubleAngle, "SYS", isVocabularyToken: false),
    Delimiter(.square, "INST", isVocabularyToken: true),
    // Mistral.
    Delimiter(.square, "SYSTEM_PROMPT", isVocabularyToken: true),
    Delimiter(.square, "AVAILABLE_TOOLS", isVocabularyToken: true),
    Delimiter(.square, "TOOL_CALLS", isVocabularyToken: true),
    Delimiter(.square, "TOOL_RESULTS", isVocabularyToken: true),
    Delimiter(.square, "THINK", isVocabularyToken: true),
  ]

  /// The longest name, in characters, of a pipe token outside ``delimiters`` that is still
  /// neutralized when spelled exactly (`<|reserved_special_token_250|>` has 29): 64.
  public static let anyPipeTokenNameLimit = 64
}
