import MCPServer
import Testing

@Suite("LineFramer")
struct LineFramerTests {
  private func message(_ text: String) -> TransportFrame { .message(Array(text.utf8)) }

  @Test("Splits at newlines, joins lines split across chunks")
  func splitting() {
    var framer = LineFramer(maximumLineBytes: 100)
    #expect(framer.append(Array("ab\ncd".utf8)) == [message("ab")])
    #expect(framer.append(Array("e\n\nf".utf8)) == [message("cde"), message("")])
    #expect(framer.finish() == message("f"))
    #expect(framer.finish() == nil)
  }

  @Test("A line over the limit is dropped as it arrives and reported with its full size and its first bytes")
  func oversized() {
    var framer = LineFramer(maximumLineBytes: 4, headBytes: 6)
    #expect(framer.append(Array("1234\n12".utf8)) == [message("1234")])
    #expect(framer.append(Array("345".utf8)) == [])
    #expect(framer.append(Array("678\nok\n".utf8)) == [.oversized(byteCount: 8, head: Array("123456".utf8)), message("ok")])
    #expect(framer.append(Array("toolong".utf8)) == [])
    #expect(framer.finish() == .oversized(byteCount: 7, head: Array("toolon".utf8)))
  }

  /// Review 22 (4): the id of an oversized request was lost with its bytes; the head keeps
  /// what it takes to read it, and no more however long the line.
  @Test("An oversized line keeps at most headBytes of its start, across chunks")
  func headIsBounded() {
    var framer = LineFramer(maximumLineBytes: 10, headBytes: 16)
    #expect(framer.append(Array(#"{"id":"big","#.utf8)) == [])
    #expect(framer.append([UInt8](repeating: 0x78, count: 100_000)) == [])
    let frames = framer.append(Array("\n".utf8))
    #expect(frames == [.oversized(byteCount: 100_012, head: Array(#"{"id":"big",xxxx"#.utf8))])
    #expect(LineFramer(maximumLineBytes: 1).headBytes == LineFramer.defaultHeadBytes)
  }
}
