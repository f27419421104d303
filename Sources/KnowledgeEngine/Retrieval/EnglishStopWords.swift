/// English stop words removed from queries (never from the index).
///
/// The list is Apache Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (33 words), also
/// bm25s's `"en"` list. Words are compared in folded, unstemmed form. A query made only of
/// stop words keeps them (so `to be or not to be` is still searched).
package enum EnglishStopWords {
  /// The 33 words of Lucene's English stop set.
  package static let lucene: Set<String> = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is",
    "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
    "these", "they", "this", "to", "was", "will", "with",
  ]

  /// The Snowball English stop list (snowballstem.org, `english/stop.txt`), words without
  /// apostrophes.
  package static let snowball: Set<String> = [
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours",
    "yourself", "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself",
    "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "what", "which",
    "who", "whom", "this", "that", "these", "those", "am", "is", "are", "was", "were", "be",
    "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "would",
    "should", "could", "ought", "cannot", "a", "an", "the", "and", "but", "if", "or",
    "because", "as", "until", "while", "of", "at", "by", "for", "with", "about", "against",
    "between", "into", "through", "during", "before", "after", "above", "below", "to", "from",
    "up", "down", "in", "out", "on", "off", "over", "under", "again", "further", "then",
    "once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each",
    "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same",
    "so", "than", "too", "very",
  ]
}
