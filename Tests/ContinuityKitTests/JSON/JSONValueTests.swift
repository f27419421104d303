import ContinuityKit
import Foundation
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  @Test("Accessors return the payload only for the matching kind")
  func accessors() {
    let value: JSONValue = ["s": "x", "n": 3, "b": false, "a": [1], "o": ["k": nil]]
    #expect(value["s"]?.string == "x")
    #expect(value["s"]?.int == nil)
    #expect(value["n"]?.int == 3)
    #expect(value["n"]?.double == 3)
    #expect(value["n"]?.string == nil)
    #expect(value["b"]?.bool == false)
    #expect(value["a"]?.array == [1])
    #expect(value["o"]?["k"]?.isNull == true)
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("x")["k"] == nil)
    #expect(value.object?.count == 5)
    #expect(value.kindName == "object")
    #expect(JSONValue.integer(UInt64.max).number?.literal == "18446744073709551615")
  }

  @Test("Object equality ignores member order; the order is kept for output")
  func objectOrder() throws {
    let one = try JSONValue(parsing: #"{"a":1,"b":2}"#)
    let two = try JSONValue(parsing: #"{"b":2,"a":1}"#)
    #expect(one == two)
    #expect(one.hashValue == two.hashValue)
    #expect(two.object?.keys == ["b", "a"])
  }

  @Test("JSONObject subscript adds, replaces in place and removes")
  func objectMutation() {
    var object: JSONObject = ["a": 1, "b": 2]
    object["c"] = 3
    object["a"] = "one"
    #expect(object.keys == ["a", "b", "c"])
    #expect(object["a"] == "one")
    object["b"] = nil
    #expect(object.keys == ["a", "c"])
    #expect(!object.contains("b"))
    object["n"] = .null
    #expect(object.contains("n"))
    #expect(Array(object.map(\.key)) == ["a", "c", "n"])
    let repeated = JSONObject([("k", 1), ("j", 2), ("k", 3)])
    #expect(repeated.keys == ["k", "j"])
    #expect(repeated["k"] == 3)
  }

  struct Record: Codable, Equatable {
    var id: Int64
    var name: String
    var created: Date
    var tags: [String]
    var extra: JSONValue
  }

  @Test("Encodable → JSONValue → Decodable goes through StableJSON")
  func encodingAndDecoding() throws {
    let record = Record(
      id: 9_007_199_254_740_993, name: "a/b", created: Date(timeIntervalSince1970: 1_790_000_000.5),
      tags: ["x"], extra: ["nested": [1, "two", nil]])
    let value = try JSONValue(encoding: record)
    #expect(value["id"]?.number?.literal == "9007199254740993")
    #expect(value["created"]?.string == "2026-09-21T14:13:20.500Z")
    #expect(value["extra"] == ["nested": [1, "two", nil]])
    #expect(value.object?.keys == ["created", "extra", "id", "name", "tags"])
    let back: Record = try value.decode()
    #expect(back == record)
  }

  struct Envelope: Codable, Equatable {
    var payload: JSONValue
  }

  @Test("Embedded in a Codable type through Foundation's coders")
  func embedded() throws {
    let payload: JSONValue = [
      "big": .integer(Int64.max), "neg": -5, "pi": 3.25, "list": [true, nil, "s"],
    ]
    let data = try JSONEncoder().encode(Envelope(payload: payload))
    let decoded = try JSONDecoder().decode(Envelope.self, from: data)
    #expect(decoded.payload["big"]?.int == Int(Int64.max))
    #expect(decoded.payload["neg"]?.int == -5)
    #expect(decoded.payload["pi"]?.double == 3.25)
    #expect(decoded.payload["list"] == [true, nil, "s"])
  }

  @Test("A number beyond Double cannot go through an Encoder, and says so")
  func hugeNumberThroughEncoder() throws {
    let payload = try JSONValue(parsing: "1e400")
    #expect(throws: EncodingError.self) {
      try JSONEncoder().encode(Envelope(payload: payload))
    }
    // The exact path keeps it.
    #expect(payload.jsonString() == "1e400")
  }
}
