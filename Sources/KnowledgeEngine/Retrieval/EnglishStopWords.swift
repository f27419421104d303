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

  /// The stop list of Cornell's SMART system (Salton and Buckley; 571 words, as published in
  /// Lewis et al., "RCV1", *JMLR* 5, 2004, appendix 11), less its words with an apostrophe and
  /// its 26 single letters (`vitamin D`, `T cells`, `C` are words of their own in notes): 497 words.
  package static let smart: Set<String> = [
    "able", "about", "above", "according", "accordingly", "across", "actually", "after",
    "afterwards", "again", "against", "all", "allow", "allows", "almost", "alone", "along",
    "already", "also", "although", "always", "am", "among", "amongst", "an", "and", "another",
    "any", "anybody", "anyhow", "anyone", "anything", "anyway", "anyways", "anywhere", "apart",
    "appear", "appreciate", "appropriate", "are", "around", "as", "aside", "ask", "asking",
    "associated", "at", "available", "away", "awfully", "be", "became", "because", "become",
    "becomes", "becoming", "been", "before", "beforehand", "behind", "being", "believe", "below",
    "beside", "besides", "best", "better", "between", "beyond", "both", "brief", "but", "by",
    "came", "can", "cannot", "cant", "cause", "causes", "certain", "certainly", "changes",
    "clearly", "co", "com", "come", "comes", "concerning", "consequently", "consider",
    "considering", "contain", "containing", "contains", "corresponding", "could", "course",
    "currently", "definitely", "described", "despite", "did", "different", "do", "does", "doing",
    "done", "down", "downwards", "during", "each", "edu", "eg", "eight", "either", "else",
    "elsewhere", "enough", "entirely", "especially", "et", "etc", "even", "ever", "every",
    "everybody", "everyone", "everything", "everywhere", "ex", "exactly", "example", "except",
    "far", "few", "fifth", "first", "five", "followed", "following", "follows", "for", "former",
    "formerly", "forth", "four", "from", "further", "furthermore", "get", "gets", "getting",
    "given", "gives", "go", "goes", "going", "gone", "got", "gotten", "greetings", "had", "happens",
    "hardly", "has", "have", "having", "he", "hello", "help", "hence", "her", "here", "hereafter",
    "hereby", "herein", "hereupon", "hers", "herself", "hi", "him", "himself", "his", "hither",
    "hopefully", "how", "howbeit", "however", "ie", "if", "ignored", "immediate", "in", "inasmuch",
    "inc", "indeed", "indicate", "indicated", "indicates", "inner", "insofar", "instead", "into",
    "inward", "is", "it", "its", "itself", "just", "keep", "keeps", "kept", "know", "known",
    "knows", "last", "lately", "later", "latter", "latterly", "least", "less", "lest", "let",
    "like", "liked", "likely", "little", "look", "looking", "looks", "ltd", "mainly", "many", "may",
    "maybe", "me", "mean", "meanwhile", "merely", "might", "more", "moreover", "most", "mostly",
    "much", "must", "my", "myself", "name", "namely", "nd", "near", "nearly", "necessary", "need",
    "needs", "neither", "never", "nevertheless", "new", "next", "nine", "no", "nobody", "non",
    "none", "noone", "nor", "normally", "not", "nothing", "novel", "now", "nowhere", "obviously",
    "of", "off", "often", "oh", "ok", "okay", "old", "on", "once", "one", "ones", "only", "onto",
    "or", "other", "others", "otherwise", "ought", "our", "ours", "ourselves", "out", "outside",
    "over", "overall", "own", "particular", "particularly", "per", "perhaps", "placed", "please",
    "plus", "possible", "presumably", "probably", "provides", "que", "quite", "qv", "rather", "rd",
    "re", "really", "reasonably", "regarding", "regardless", "regards", "relatively",
    "respectively", "right", "said", "same", "saw", "say", "saying", "says", "second", "secondly",
    "see", "seeing", "seem", "seemed", "seeming", "seems", "seen", "self", "selves", "sensible",
    "sent", "serious", "seriously", "seven", "several", "shall", "she", "should", "since", "six",
    "so", "some", "somebody", "somehow", "someone", "something", "sometime", "sometimes",
    "somewhat", "somewhere", "soon", "sorry", "specified", "specify", "specifying", "still", "sub",
    "such", "sup", "sure", "take", "taken", "tell", "tends", "th", "than", "thank", "thanks",
    "thanx", "that", "thats", "the", "their", "theirs", "them", "themselves", "then", "thence",
    "there", "thereafter", "thereby", "therefore", "therein", "theres", "thereupon", "these",
    "they", "think", "third", "this", "thorough", "thoroughly", "those", "though", "three",
    "through", "throughout", "thru", "thus", "to", "together", "too", "took", "toward", "towards",
    "tried", "tries", "truly", "try", "trying", "twice", "two", "un", "under", "unfortunately",
    "unless", "unlikely", "until", "unto", "up", "upon", "us", "use", "used", "useful", "uses",
    "using", "usually", "uucp", "value", "various", "very", "via", "viz", "vs", "want", "wants",
    "was", "way", "we", "welcome", "well", "went", "were", "what", "whatever", "when", "whence",
    "whenever", "where", "whereafter", "whereas", "whereby", "wherein", "whereupon", "wherever",
    "whether", "which", "while", "whither", "who", "whoever", "whole", "whom", "whose", "why",
    "will", "willing", "wish", "with", "within", "without", "wonder", "would", "yes", "yet", "you",
    "your", "yours", "yourself", "yourselves", "zero",
  ]
}
