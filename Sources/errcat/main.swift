// errcat: the SwiftErr command-line tool. Dispatches to one subcommand and exits with its status.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(Errcat.run(Array(CommandLine.arguments.dropFirst())))
