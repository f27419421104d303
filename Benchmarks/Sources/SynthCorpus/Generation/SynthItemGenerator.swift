/// The stream of synthetic items of `synth.py` (`items(src, n, seed)`).
///
/// The stream never ends and does not depend on how many items are taken, so the first 1,000
/// items of a 100,000-item corpus are the 1,000-item corpus (the prefix property).
public struct SynthItemGenerator: IteratorProtocol, Sequence, Sendable {
  /// The default seed for items, `0x5C1FAC7`.
  public static let defaultSeed: UInt64 = 0x5C1_FAC7

  /// The shortest content target, in Unicode scalars (and the least cut position).
  static let minimumContentLength = 200

  /// The number of content targets: targets run 200…2,000.
  static let contentLengthChoices = 1801

  /// The longest title, in Unicode scalars.
  static let maximumTitleLength = 200

  /// The number of tag draws: 0…8.
  static let tagDrawChoices = 9

  private let source: SynthSource
  private var random: SplitMix64

  /// Creates a stream.
  ///
  /// - Parameters:
  ///   - source: The documents to draw from.
  ///   - seed: The SplitMix64 seed.
  public init(source: SynthSource, seed: UInt64 = defaultSeed) {
    self.source = source
    random = SplitMix64(seed: seed)
  }

  /// Draws the next item.
  ///
  /// - Returns: Always an item; the stream is endless.
  /// - Complexity: O(*m*) in the length of the item's content (at most a few thousand scalars).
  public mutating func next() -> SynthItem? {
    let documentCount = source.docs.count
    let origin = random.below(documentCount)
    let target = Self.minimumContentLength + random.below(Self.contentLengthChoices)
    let originSentences = source.sentences[origin]
    let start = random.below(originSentences.count)
    var pieces = Array(originSentences[start...] + originSentences[..<start])

    // Lengths are tracked in scalars so that the loop never recounts the content.
    var content = ""
    content.reserveCapacity(4 * target)
    var length = 0
    var pieceIndex = 0
    while length < target {
      if pieceIndex == pieces.count {
        pieces = source.sentences[random.below(documentCount)]
        pieceIndex = 0
      }
      let piece = pieces[pieceIndex]
      if content.isEmpty {
        content.append(piece.text)
        length = piece.scalarCount
      } else {
        content.append(" ")
        content.append(piece.text)
        length += 1 + piece.scalarCount
      }
      pieceIndex += 1
    }
    if length > target {
      content = Self.cut(content, scalarCount: length, to: target)
    }

    let title = String(source.docs[origin].title.unicodeScalars.prefix(Self.maximumTitleLength))
    let tagDraws = random.below(Self.tagDrawChoices)
    let local = localVocabulary(title: title, content: content)
    var tags: [String] = []
    for _ in 0..<tagDraws {
      let tag: String?
      // The coin is tossed even when `local` is empty, as in the spec.
      if random.below(2) == 0, !local.isEmpty {
        tag = local[random.below(local.count)]
      } else {
        tag = vocabularyTag(random.below(SynthSource.vocabularyLimit))
      }
      if let tag, !tags.contains(tag) {
        tags.append(tag)
      }
    }
    return SynthItem(title: title, content: content, tags: tags)
  }

  /// The spec's `local`: the vocabulary words among the tokens of `title + " " + content`,
  /// in vocabulary order.
  ///
  /// Title and content are scanned one after the other, which finds the same tokens as
  /// scanning them joined by a space. Stop words need no filtering: the vocabulary has none.
  private func localVocabulary(title: String, content: String) -> [String] {
    var occurs = [Bool](repeating: false, count: source.vocab.count)
    for text in [title, content] {
      Words.forEachToken(in: text) { bytes in
        guard bytes.count <= source.longestVocabularyWord else { return }
        if let rank = source.vocabularyRank[String(decoding: bytes, as: UTF8.self)] {
          occurs[rank] = true
        }
      }
    }
    return source.vocab.indices.filter { occurs[$0] }.map { source.vocab[$0] }
  }

  /// The spec's `vocab[draw]`.
  ///
  /// For a source with fewer than 256 vocabulary words (tiny test corpora, where `synth.py`
  /// would fail with an IndexError) the draw wraps around, and an empty vocabulary yields no
  /// tag.
  private func vocabularyTag(_ draw: Int) -> String? {
    source.vocab.isEmpty ? nil : source.vocab[draw % source.vocab.count]
  }

  /// The spec's `cut = content[:target]; j = cut.rfind(" ");
  /// content = cut[:j] if j >= 200 else cut`, in Unicode scalars.
  ///
  /// Walks back from the end: the content overshoots its target by less than a sentence.
  ///
  /// - Parameters:
  ///   - content: The assembled content.
  ///   - scalarCount: The number of Unicode scalars in `content`; more than `target`.
  ///   - target: The content target, in Unicode scalars.
  /// - Returns: At most `target` scalars of `content`.
  static func cut(_ content: String, scalarCount: Int, to target: Int) -> String {
    let scalars = content.unicodeScalars
    let end = scalars.index(scalars.endIndex, offsetBy: target - scalarCount)
    var index = end
    var offset = target  // the scalar offset of `index`
    while index != scalars.startIndex {
      let previous = scalars.index(before: index)
      offset -= 1
      if scalars[previous] == " " {
        // `previous` is the last space, at offset j = `offset`.
        return offset >= minimumContentLength
          ? String(scalars[..<previous]) : String(scalars[..<end])
      }
      index = previous
    }
    return String(scalars[..<end])
  }
}

/// Generates the first `count` synthetic items: `synth.py`'s `items(src, count, seed)`.
///
/// - Parameters:
///   - src: The documents to draw from.
///   - count: How many items; not negative.
///   - seed: The SplitMix64 seed (`0x5C1FAC7` in the spec).
/// - Returns: The items in stream order; any prefix is the corpus of that size.
/// - Complexity: O(`count`) items of at most 2,000 scalars each.
public func synthItems(
  _ src: SynthSource, count: Int, seed: UInt64 = SynthItemGenerator.defaultSeed
) -> [SynthItem] {
  precondition(count >= 0, "synthItems needs a count of at least 0, got \(count)")
  return Array(SynthItemGenerator(source: src, seed: seed).prefix(count))
}
