import FuzzEntries

/// libFuzzer's entry point for the `jsonrpc` target: runs FuzzEntries on one input and crashes
/// on a violated property, so libFuzzer keeps the input as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let problems = FuzzEntries.targets["jsonrpc", default: { _ in [] }](input)
  if !problems.isEmpty { fatalError("jsonrpc: " + problems.joined(separator: "; ")) }
  return 0
}
