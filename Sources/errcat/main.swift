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

// A standard descriptor that was closed (`errcat check x.json >&-`) is occupied by /dev/null,
// opened for the other direction, before anything else is opened: otherwise the next file
// opened would become "standard output" and receive the output. Writes to it fail with EBADF,
// which the command reports ("cannot write standard output: Bad file descriptor") with status 1.
for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
    let occupant = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
    if occupant != descriptor {
        // /dev/null cannot be opened, or the lowest free descriptor was another one: give up
        // rather than let output go to a file opened later.
        exit(1)
    }
}

exit(Errcat.run(Array(CommandLine.arguments.dropFirst())))
