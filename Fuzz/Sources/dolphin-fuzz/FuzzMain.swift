import FuzzEntries

/// The target this run exercises (`FuzzEntries.targets` key), chosen by the first argument
/// before libFuzzer starts; read by ``fuzzTestOneInput(_:_:)``, which libFuzzer calls on this
/// thread only.
nonisolated(unsafe) var selectedTarget: @Sendable ([UInt8]) -> [String] = { _ in [] }
nonisolated(unsafe) var selectedName = ""

/// libFuzzer's entry point: runs the selected `FuzzEntries` target on one input and crashes on
/// a violated property, so libFuzzer keeps the input as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let problems = selectedTarget(input)
  if !problems.isEmpty { fatalError("\(selectedName): " + problems.joined(separator: "; ")) }
  return 0
}

/// The program's entry point (SwiftPM links an executable's `main` as `<module>_main`):
/// `dolphin-fuzz TARGET [libFuzzer flags and corpus directories]`. It takes TARGET off the
/// arguments and hands the rest to libFuzzer's driver.
@_cdecl("dolphin_fuzz_main")
public func fuzzMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  let names = FuzzEntries.targets.keys.sorted().joined(separator: ", ")
  guard let argv, argc >= 2, let raw = argv[1], let target = FuzzEntries.targets[String(cString: raw)] else {
    print("usage: dolphin-fuzz TARGET [libFuzzer options] [corpus directories]; targets: \(names)")
    return 64
  }
  selectedName = String(cString: raw)
  selectedTarget = target
  // Drop TARGET: libFuzzer sees the program name followed by its own arguments.
  argv[1] = argv[0]
  var count = argc - 1
  var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv + 1
  return LLVMFuzzerRunDriver(&count, &arguments, fuzzTestOneInput)
}

/// libFuzzer's driver (`FuzzerInterface.h`): parses the flags and runs the fuzzing loop.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
