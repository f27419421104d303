import DolphinCommands

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Files we create are private whatever the caller's umask (the store also sets modes itself).
umask(0o077)
// The raw bytes, not `CommandLine.arguments`, which repairs invalid UTF-8 with U+FFFD: the
// command line refuses such an argument instead of storing the repaired text.
let rawArguments = (1..<Int(CommandLine.argc)).map { i -> [UInt8] in
  guard let argument = CommandLine.unsafeArgv[i] else { return [] }
  return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
exit(await DolphinCLI.run(rawArguments: rawArguments, console: .standard()))
