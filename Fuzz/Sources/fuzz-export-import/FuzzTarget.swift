import FuzzEntries

/// libFuzzer's entry point for the `export-import` target: runs FuzzEntries on one input and crashes
/// on a violated property, so libFuzzer keeps the input as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let problems = FuzzEntries.targets["export-import", default: { _ in [] }](input)
  if !problems.isEmpty { fatalError("export-import: " + problems.joined(separator: "; ")) }
  return 0
}
