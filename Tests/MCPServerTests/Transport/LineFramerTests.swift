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

  @Test("A line over the limit is dropped as it arrives and reported with its full size")
  func oversized() {
    var framer = LineFramer(maximumLineBytes: 4)
    #expect(framer.append(Array("1234\n12".utf8)) == [message("1234")])
    #expect(framer.append(Array("345".utf8)) == [])
    #expect(framer.append(Array("678\nok\n".utf8)) == [.oversized(byteCount: 8), message("ok")])
    #expect(framer.append(Array("toolong".utf8)) == [])
    #expect(framer.finish() == .oversized(byteCount: 7))
  }
}
