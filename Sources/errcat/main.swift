// errcat: the SwiftErr command-line tool. Everything is in ErrcatKit; this runs one command and
// exits with its status.

import ErrcatKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

exit(Errcat.run(Array(CommandLine.arguments.dropFirst())))
