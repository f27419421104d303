import FuzzEntries

/// libFuzzer's entry point for the `code-analysis` target: runs `FuzzEntries` on one input and crashes
/// on a violated property, so libFuzzer keeps the input as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let problems = FuzzEntries.targets["code-analysis", default: { _ in [] }](input)
  if !problems.isEmpty { fatalError("code-analysis: " + problems.joined(separator: "; ")) }
  return 0
}

/// The program's entry point. SwiftPM links an executable target with `main` defined as
/// `<module>_main`, so this symbol is what runs; it hands control to libFuzzer's driver.
@_cdecl("fuzz_code_analysis_main")
public func fuzzMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments, fuzzTestOneInput)
}

/// libFuzzer's driver (`FuzzerInterface.h`): parses the flags and runs the fuzzing loop.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
