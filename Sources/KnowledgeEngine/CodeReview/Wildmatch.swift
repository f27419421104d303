/// Glob matching as git does it: a port of git's `wildmatch.c`, the matcher behind
/// gitignore patterns.
///
/// `*` matches any run of bytes except `/` when `pathname` is set; `**` between slashes (or at
/// either end) matches across directories; `?` one byte (not `/` with `pathname`); `[…]` a class
/// with ranges, `!`/`^` negation, `\` escapes and `[:alpha:]`-style named classes; `\x` the
/// literal `x`. Matching is byte-wise and case-sensitive, as git's is with
/// `core.ignorecase=false`.
enum Wildmatch {
  enum Result {
    case match, noMatch, abortAll, abortToDoubleStar
  }

  /// Whether `pattern` matches all of `text`.
  /// - Complexity: linear in common cases; backtracking on `*` is bounded as in git (aborts
  ///   propagate), worst case O(|pattern|·|text|) per star.
  static func matches(_ pattern: [UInt8], _ text: [UInt8], pathname: Bool) -> Bool {
    (pattern + [0]).withUnsafeBufferPointer { p in
      (text + [0]).withUnsafeBufferPointer { t in
        match(p, 0, t, 0, pathname: pathname) == .match
      }
    }
  }

  static let slash = UInt8(ascii: "/")
  static let star = UInt8(ascii: "*")
  static let backslash = UInt8(ascii: "\\")

  static func isGlobSpecial(_ c: UInt8) -> Bool {
    c == star || c == UInt8(ascii: "?") || c == UInt8(ascii: "[") || c == backslash
  }

  static func indexOfSlash(_ t: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var k = start
    while t[k] != 0 {
      if t[k] == slash { return k }
      k += 1
    }
    return nil
  }

  // The recursion mirrors `dowild` in git's wildmatch.c; both buffers end with a 0 sentinel.
  static func match(
    _ p: UnsafeBufferPointer<UInt8>, _ pStart: Int, _ t: UnsafeBufferPointer<UInt8>,
    _ tStart: Int, pathname: Bool
  ) -> Result {
    var pi = pStart
    var ti = tStart
    while p[pi] != 0 {
      var pc = p[pi]
      var tc = t[ti]
      if tc == 0 && pc != star { return .abortAll }
      switch pc {
      case UInt8(ascii: "?"):
        if pathname && tc == slash { return .noMatch }
      case star:
        var matchSlash: Bool
        pi += 1
        if p[pi] == star {
          let prev = pi - 2
          while p[pi] == star { pi += 1 }
          if (prev < 0 || p[prev] == slash)
            && (p[pi] == 0 || p[pi] == slash || (p[pi] == backslash && p[pi + 1] == slash))
          {
            if p[pi] == slash, match(p, pi + 1, t, ti, pathname: pathname) == .match {
              return .match
            }
            matchSlash = true
          } else {
            matchSlash = false
          }
        } else {
          matchSlash = !pathname
        }
        if p[pi] == 0 {
          // Trailing `**` matches everything; a trailing `*` only what has no more slashes.
          if !matchSlash, indexOfSlash(t, from: ti) != nil { return .noMatch }
          return .match
        } else if !matchSlash && p[pi] == slash {
          // One `*` then `/`: matches the rest of this path component.
          guard let next = indexOfSlash(t, from: ti) else { return .noMatch }
          // Both slashes are consumed here, as git's loop step does.
          ti = next + 1
          pi += 1
          continue
        }
        while true {
          if tc == 0 { break }
          if !isGlobSpecial(p[pi]) {
            let literal = p[pi]
            while t[ti] != 0 && (matchSlash || t[ti] != slash) {
              if t[ti] == literal { break }
              ti += 1
            }
            tc = t[ti]
            if tc != literal { return matchSlash ? .abortAll : .abortToDoubleStar }
          }
          let result = match(p, pi, t, ti, pathname: pathname)
          if result != .noMatch {
            if !matchSlash || result != .abortToDoubleStar { return result }
          } else if !matchSlash && tc == slash {
            return .abortToDoubleStar
          }
          ti += 1
          tc = t[ti]
        }
        return .abortAll
      case UInt8(ascii: "["):
        pi += 1
        pc = p[pi]
        if pc == UInt8(ascii: "^") { pc = UInt8(ascii: "!") }
        let negated = pc == UInt8(ascii: "!")
        if negated {
          pi += 1
          pc = p[pi]
        }
        var prev: UInt8 = 0
        var matched = false
        repeat {
          if pc == 0 { return .abortAll }
          if pc == backslash {
            pi += 1
            pc = p[pi]
            if pc == 0 { return .abortAll }
            if tc == pc { matched = true }
          } else if pc == UInt8(ascii: "-") && prev != 0 && p[pi + 1] != 0
            && p[pi + 1] != UInt8(ascii: "]")
          {
            pi += 1
            pc = p[pi]
            if pc == backslash {
              pi += 1
              pc = p[pi]
              if pc == 0 { return .abortAll }
            }
            if tc <= pc && tc >= prev { matched = true }
            pc = 0  // so that `prev` becomes 0
          } else if pc == UInt8(ascii: "[") && p[pi + 1] == UInt8(ascii: ":") {
            let nameStart = pi + 2
            pi = nameStart
            while p[pi] != 0 && p[pi] != UInt8(ascii: "]") { pi += 1 }
            if p[pi] == 0 { return .abortAll }
            let length = pi - nameStart - 1
            if length < 0 || p[pi - 1] != UInt8(ascii: ":") {
              // No `:]`: treat the `[` as a normal member.
              pi = nameStart - 2
              pc = UInt8(ascii: "[")
              if tc == pc { matched = true }
            } else {
              let name = String(
                decoding: UnsafeBufferPointer(rebasing: p[nameStart..<(nameStart + length)]),
                as: UTF8.self)
              guard let inClass = namedClass(name, tc) else { return .abortAll }
              if inClass { matched = true }
              pc = 0
            }
          } else if tc == pc {
            matched = true
          }
          prev = pc
          pi += 1
          pc = p[pi]
        } while pc != UInt8(ascii: "]")
        if matched == negated || (pathname && tc == slash) { return .noMatch }
      default:
        if pc == backslash {
          pi += 1
          pc = p[pi]
        }
        if tc != pc { return .noMatch }
      }
      pi += 1
      ti += 1
    }
    return t[ti] != 0 ? .noMatch : .match
  }

  /// Membership of `c` in a POSIX class; `nil` for an unknown class name (git aborts).
  static func namedClass(_ name: String, _ c: UInt8) -> Bool? {
    let isUpper = c >= 0x41 && c <= 0x5A
    let isLower = c >= 0x61 && c <= 0x7A
    let isDigit = c >= 0x30 && c <= 0x39
    let isAlpha = isUpper || isLower
    let isPrint = c >= 0x20 && c < 0x7F
    switch name {
    case "alnum": return isAlpha || isDigit
    case "alpha": return isAlpha
    case "blank": return c == 0x20 || c == 0x09
    case "cntrl": return c < 0x20 || c == 0x7F
    case "digit": return isDigit
    case "graph": return isPrint && c != 0x20
    case "lower": return isLower
    case "print": return isPrint
    case "punct": return isPrint && c != 0x20 && !isAlpha && !isDigit
    case "space": return c == 0x20 || (c >= 0x09 && c <= 0x0D)
    case "upper": return isUpper
    case "xdigit": return isDigit || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    default: return nil
    }
  }
}
