extension CredentialDetector {
  /// What a key's name says about the value assigned to it.
  enum KeyName: Equatable {
    /// Not a credential's key: `max_tokens`, `password_min_length`, `username`.
    case other
    /// A credential's key: `REDIS_PASSWORD_PROD`, `authToken`, `password2`, `"client_secret"`.
    case credential
    /// An AWS secret access key's key: `AWS_SECRET_ACCESS_KEY`, `SecretAccessKey`.
    case awsSecretAccessKey
  }

  /// Whether `name` reads as a credential's key, by the key-name rule of ``CredentialDetector``:
  /// one of its parts is a credential word and no part after the last one describes it. So
  /// `dbPassword`, `client_secret`, `GITHUB_TOKEN_CI`, `password2` and `SECRET_KEY_BASE` do;
  /// `tokens`, `max_tokens`, `passwordHint` and `password_min_length` do not. Used by code
  /// analysis to find a literal assigned to such a name.
  /// - Parameter name: an identifier or key, any case; characters other than ASCII letters and
  ///   digits separate its parts.
  /// - Complexity: O(*n* · *w*) for a name of *n* UTF-8 bytes and the *w* (about 60) words
  ///   the rule lists; it allocates nothing for a native `String`.
  public static func isCredentialKey(_ name: some StringProtocol) -> Bool {
    var copy = String(name)
    // Read as the detector reads text: `p\u{0430}ssword` (a Cyrillic а) is `password`.
    if let folded = folded(copy) {
      return folded.bytes.withUnsafeBufferPointer { keyName(of: $0) } != .other
    }
    return copy.withUTF8 { keyName(of: $0) } != .other
  }

  /// ``isCredentialKey(_:)`` for a name's UTF-8 bytes, for callers that hold them (code
  /// analysis, which checks the name of every literal assigned or passed by label).
  package static func isCredentialKey(utf8 name: UnsafeBufferPointer<UInt8>) -> Bool {
    keyName(of: name) != .other
  }

  /// What the key spelled by `key` names, by the key-name rule of ``CredentialDetector``.
  ///
  /// The key is split into parts at every byte that is not an ASCII letter or digit (`_`, `-`,
  /// `.`), between a lowercase and an uppercase letter (`authToken`), before the last of a run
  /// of capitals followed by a lowercase letter (`APIKey` → `API`, `Key`), and between letters
  /// and digits (`password2`). Parts compare case-insensitively. A part *names a credential*
  /// when it is, or ends with, one of ``credentialWords`` (`dbpassword`, `accesstoken`), or
  /// when it and the part before it form one of ``credentialPairs`` (`api`, `key`). The key is
  /// a credential's when some part names a credential and no letter part after the last such
  /// part is one of ``descriptorWords``; a part of digits is neither.
  /// - Complexity: O(*n* · *w*) for *n* bytes and *w* listed words; no allocation.
  static func keyName(of key: UnsafeBufferPointer<UInt8>) -> KeyName {
    var named = false
    var described = false
    var aws = false
    // The two parts before the current one, for pairs and `secret access key`.
    var previous = 0..<0
    var beforePrevious = 0..<0
    var i = 0
    let n = key.count
    while i < n {
      let c = key[i]
      guard isASCIILetter(c) || isASCIIDigit(c) else {
        i += 1
        continue
      }
      var j = i + 1
      if isASCIIDigit(c) {
        while j < n, isASCIIDigit(key[j]) { j += 1 }
      } else {
        while j < n, isASCIILetter(key[j]) {
          if isASCIIUpper(key[j]) {
            if isASCIILower(key[j - 1]) { break }
            if j + 1 < n, isASCIIUpper(key[j - 1]), isASCIILower(key[j + 1]) { break }
          }
          j += 1
        }
      }
      let part = i..<j
      if isASCIILetter(c) {
        if names(part, after: previous, in: key) {
          named = true
          described = false
          aws =
            endsWith(part, "secretaccesskey", in: key)
            || (equals(previous, "secret", in: key) && equals(part, "accesskey", in: key))
            || (equals(beforePrevious, "secret", in: key) && equals(previous, "access", in: key)
              && equals(part, "key", in: key))
        } else if named, !described, descriptorWords.contains(where: { equals(part, $0, in: key) }) {
          described = true
        }
      }
      beforePrevious = previous
      previous = part
      i = j
    }
    guard named, !described else { return .other }
    return aws ? .awsSecretAccessKey : .credential
  }

  /// Parts that name a credential when a part is one of them or ends with one (`password`,
  /// `DBPASSWORD`, `accessToken`'s `token`). Not `key` (`primary_key`, `sort_key`), not `pass`
  /// (`bypass`, `compass`), not `auth` alone (`auth: oauth2` names a scheme; `authToken` and
  /// `auth_key` count), not `credentials` (`credentials: "include"` in `fetch`,
  /// `GOOGLE_APPLICATION_CREDENTIALS=/path/key.json`), and no plural (`tokens`, `secrets`).
  static let credentialWords: [[UInt8]] = [
    "password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "accesskey", "secretkey",
    "privatekey", "authkey",
  ].map { Array($0.utf8) }

  /// A part and the one before it that name a credential together: `api` `key` (`API_KEY`,
  /// `apiKey`, `api-key`), `access` `key`, `private` `key`, `auth` `key`, `pass` `phrase`.
  static let credentialPairs: [([UInt8], [UInt8])] = [
    ("api", "key"), ("access", "key"), ("private", "key"), ("auth", "key"), ("pass", "phrase"),
  ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

  /// Parts that, after the credential word, make the key *about* the credential rather than
  /// hold it: a rule or measure of it (`password_min_length`, `token_count`, `password_hint`,
  /// `token_expiry`), its kind (`token_type`), where or how it is found (`password_reset_url`,
  /// `secret_name`, `DB_PASSWORD_FILE`, `token_header`, `password_cmd`), or the text that asks
  /// for it (`password_prompt`, `password_label`). A digest of it (`password_hash`) is not it
  /// either.
  static let descriptorWords: [[UInt8]] = [
    // a rule or a measure
    "hint", "policy", "rule", "rules", "min", "max", "minimum", "maximum", "length", "len", "size",
    "count", "num", "limit", "age", "strength", "pattern", "regex", "format",
    // when it lapses
    "expiry", "expires", "expiration", "ttl", "lifetime", "timeout",
    // its kind
    "type", "kind", "scheme", "algorithm", "mode",
    // where or how it is found, set or sent
    "reset", "url", "uri", "endpoint", "path", "file", "dir", "name", "id", "ids", "ref", "arn", "env",
    "var", "header", "field", "param", "input", "store", "manager", "provider", "cmd", "command",
    "scope", "scopes",
    // the text that asks for it
    "prompt", "label", "placeholder", "title", "message", "description",
    // a digest of it
    "hash", "digest",
  ].map { Array($0.utf8) }

  private static func names(_ part: Range<Int>, after previous: Range<Int>, in key: UnsafeBufferPointer<UInt8>) -> Bool {
    for word in credentialWords where endsWith(part, word, in: key) { return true }
    for (first, second) in credentialPairs where equals(part, second, in: key) && equals(previous, first, in: key) {
      return true
    }
    return false
  }

  /// Whether the bytes of `part`, lowercased, are `word`.
  private static func equals(_ part: Range<Int>, _ word: some Collection<UInt8>, in key: UnsafeBufferPointer<UInt8>) -> Bool {
    part.count == word.count && endsWith(part, word, in: key)
  }

  /// Whether the bytes of `part`, lowercased, end with `word`.
  private static func endsWith(_ part: Range<Int>, _ word: some Collection<UInt8>, in key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard part.count >= word.count else { return false }
    var k = part.upperBound - word.count
    for w in word {
      let c = key[k]
      if (isASCIIUpper(c) ? c + 32 : c) != w { return false }
      k += 1
    }
    return true
  }

  private static func equals(_ part: Range<Int>, _ word: StaticString, in key: UnsafeBufferPointer<UInt8>) -> Bool {
    word.withUTF8Buffer { equals(part, $0, in: key) }
  }

  private static func endsWith(_ part: Range<Int>, _ word: StaticString, in key: UnsafeBufferPointer<UInt8>) -> Bool {
    word.withUTF8Buffer { endsWith(part, $0, in: key) }
  }

  static func isASCIIDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
  static func isASCIIUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
  static func isASCIILower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
  static func isASCIILetter(_ c: UInt8) -> Bool { isASCIIUpper(c) || isASCIILower(c) }
}
