import DolphinCommands

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Files we create are private whatever the caller's umask (the store also sets modes itself).
umask(0o077)
exit(await DolphinCLI.run(Array(CommandLine.arguments.dropFirst()), console: .standard()))
