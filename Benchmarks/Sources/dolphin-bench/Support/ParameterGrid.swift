import KnowledgeEngine

/// A grid of ranking parameters to sweep: `name=v1,v2;name=v1,…`, expanded to every
/// combination, each applied on top of ``HybridLexicalRanker/Parameters/v1``.
///
/// Names: `k1`, `b.title`, `b.tags`, `b.content`, `weight.title`, `weight.tags`,
/// `weight.content`, `phrase`, `coverage`, `fuzzy`, `prefix`, and the others of ``names``
/// (`title.ceiling=inf` and `otherform.share=0` turn those bounds off).
struct ParameterGrid {
  /// One axis: a parameter name and the values it takes.
  struct Axis {
    var name: String
    var values: [Double]
  }

  var axes: [Axis]

  /// Parses `k1=0.9,1.2;b.content=0.6,0.75`.
  ///
  /// - Throws: ``UsageError`` for an unknown name or a value that is not a number.
  init(parsing text: String) throws {
    axes = try text.split(separator: ";").map { part in
      let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pieces.count == 2, Self.names.contains(pieces[0]) else {
        throw UsageError(
          message: "--grid: '\(part)' is not NAME=V1,V2 with NAME one of "
            + Self.names.joined(separator: ", "))
      }
      let values = try pieces[1].split(separator: ",").map { value in
        guard let number = Double(value) else {
          throw UsageError(message: "--grid: '\(value)' for \(pieces[0]) is not a number")
        }
        return number
      }
      return Axis(name: pieces[0], values: values)
    }
  }

  static let names = [
    "k1", "b.title", "b.tags", "b.content", "weight.title", "weight.tags", "weight.content",
    "phrase", "coverage", "fuzzy", "prefix", "wordforms", "wordform.prefix",
    "wordform.similarity", "wordform.idfbound", "spellings", "spelling.weight", "compounds", "compound.weight", "compound.open",
    "plurals", "plurals.names", "initials", "particles", "oneedit", "numbers", "smart",
    "title.ceiling", "content.floor", "otherform.share", "otherform.length", "otherform.terms",
    "coverage.terms", "joined.singles",
  ]

  /// Every combination, named like `k1=1.2 b.content=0.75`, in axis order (the last axis
  /// varies fastest).
  var combinations: [(name: String, parameters: HybridLexicalRanker.Parameters)] {
    var result: [(String, HybridLexicalRanker.Parameters)] = [("", .v1)]
    for axis in axes {
      result = result.flatMap { name, parameters in
        axis.values.map { value in
          var changed = parameters
          Self.set(axis.name, to: value, in: &changed)
          return ((name.isEmpty ? "" : name + " ") + "\(axis.name)=\(value)", changed)
        }
      }
    }
    return result
  }

  static func set(_ name: String, to value: Double, in p: inout HybridLexicalRanker.Parameters) {
    switch name {
    case "k1": p.k1 = value
    case "b.title": p.b.title = value
    case "b.tags": p.b.tags = value
    case "b.content": p.b.content = value
    case "weight.title": p.fieldWeights.title = value
    case "weight.tags": p.fieldWeights.tags = value
    case "weight.content": p.fieldWeights.content = value
    case "phrase": p.phraseWeight = value
    case "coverage": p.coverageWeight = value
    case "fuzzy": p.fuzzyWeight = value
    case "prefix": p.prefixWeight = value
    case "wordforms": p.maximumWordFormVariants = Int(value)
    case "wordform.prefix": p.wordFormPrefixLength = Int(value)
    case "wordform.similarity": p.wordFormMinimumSimilarity = value
    case "wordform.idfbound": p.wordFormIDFRatioBound = value
    case "spellings": p.maximumSpellingVariants = Int(value)
    case "spelling.weight": p.spellingWeight = value
    case "compounds": p.maximumCompoundVariants = Int(value)
    case "compound.weight": p.compoundWeight = value
    case "compound.open": p.searchesOpenCompounds = value != 0
    case "plurals": p.searchesIrregularPlurals = value != 0
    case "plurals.names": p.searchesIdentifierPlurals = value != 0
    case "initials": p.searchesInitialisms = value != 0
    case "particles": p.searchesParticleCompounds = value != 0
    case "oneedit": p.matchesOneEditTypos = value != 0
    case "numbers": p.searchesWholeNumbers = value != 0
    case "smart": p.smartStopWordsMinimumLeft = Int(value)
    case "title.ceiling": p.titleNormalizationCeiling = value
    case "content.floor": p.contentNormalizationFloor = value
    case "otherform.share": p.otherFormExactShare = value
    case "otherform.length": p.otherFormReferenceLength = value
    case "otherform.terms": p.otherFormBoundMaximumTerms = Int(value)
    case "coverage.terms": p.coverageOrderMaximumTerms = Int(value)
    case "joined.singles": p.joinedSinglePartsDependent = value != 0
    default: break
    }
  }
}
