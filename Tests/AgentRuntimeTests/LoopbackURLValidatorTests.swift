import AgentRuntime
import Testing

@Suite("Loopback model URL validation")
struct LoopbackURLValidatorTests {
  @Test("loopback URLs are accepted", arguments: [
    ("http://127.0.0.1:8080", "127.0.0.1", 8080, ""),
    ("http://localhost:11434/", "127.0.0.1", 11434, ""),
    ("http://127.5.6.7:9000/v1", "127.5.6.7", 9000, "/v1"),
    ("http://[::1]:8080", "::1", 8080, ""),
    ("http://LOCALHOST:1", "127.0.0.1", 1, ""),
  ])
  func accepted(_ url: String, _ address: String, _ port: Int, _ base: String) throws {
    let e = try LoopbackURLValidator.validate(url)
    #expect(e.address == address)
    #expect(Int(e.port) == port)
    #expect(e.basePath == base)
  }

  @Test("everything else is refused from the URL alone", arguments: [
    "http://example.com", "http://10.0.0.1", "http://10.0.0.1:8080", "http://[::ffff:8.8.8.8]", "http://[::ffff:127.0.0.1]:80",
    "http://127.0.0.1.example.com", "http://127.0.0.1@example.com", "http://user:pw@127.0.0.1:80", "http://example.com@127.0.0.1",
    "https://127.0.0.1:8080", "ftp://127.0.0.1", "http://0x7f.0.0.1", "http://127.1", "http://0177.0.0.1", "http://2130706433",
    "http://0.0.0.0:80", "http://192.168.1.1", "http://[::]:80", "http://127.0.0.1:99999", "http://127.0.0.1:", "http://",
    "127.0.0.1:8080", "http://127.0.0.1:80?x=1", "http://127.0.0.１", "http://localhost.:80", "http://localhost.example.com",
  ])
  func refused(_ url: String) {
    #expect(throws: AgentError.self) { try LoopbackURLValidator.validate(url) }
  }
}
