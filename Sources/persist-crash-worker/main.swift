// persist-crash-worker: a child process for crash and locking tests. It does one kind of work
// until it is killed (or until its standard input closes), reporting progress on standard output
// one line at a time, so that a test can kill it with SIGKILL at a random moment and check what
// survived.
//
//   persist-crash-worker blocks <sqlite|gdbm|postgres> <path-or-url> <normal|full> [items-per-block]
//       Runs write blocks forever. Block n saves Current/0..k-1 with seq = n, inserts
//       Log/"n-0".."n-(k-1)" with seq = n, and deletes the Log items of block n - 8; it prints
//       n after writeSync returns.
//   persist-crash-worker merge <sqlite|gdbm> <path> [items-per-round]
//       Runs child-store merges forever. Round n makes a child, inserts Batch/"n-0".."n-(k-1)"
//       with round = n, sets Latest/0 to round = n, deletes the Batch items of round n - 8, merges
//       the child into the store, and prints n after merge returns.
//   persist-crash-worker update <sqlite|gdbm> <path> [items]
//       Declares an index on Row.round, makes Row/0..k-1 once, then runs updateItems over every
//       Row forever: round n sets round = n on all of them in one write block and prints n after
//       writeSync returns.
//   persist-crash-worker unique <sqlite|gdbm> <path> [items]
//       Declares a unique index on Seat.code, makes Seat/0..k-1 with code i once, then rotates the
//       codes forever: round n gives every Seat a temporary code, then Seat/i the code (i + n) mod k,
//       with round = n, in one write block, and prints n after writeSync returns.
//   persist-crash-worker ids <sqlite|gdbm|postgres> <path-or-url> <items>
//       Inserts Ticket items one write block each, with generated integer identifiers, printing
//       each identifier, then exits.
//   persist-crash-worker cd-read <sqlite|gdbm> <path> <directory>
//       Opens the store at a path relative to the working directory, writes Note/1, changes the
//       working directory, then reads Note/1, opens a live query on Note, writes and reads Note/2,
//       printing each item read and then "observed" with the live query's second result.
//   persist-crash-worker fill <sqlite|gdbm> <path> <limit-bytes> <value-bytes> [observe]
//       Writes Kept/0, then caps the size of the files it writes at limit-bytes (RLIMIT_FSIZE,
//       SIGXFSZ ignored) and writes blocks of three large Blob items until one fails, printing
//       each block's number, "failed <code> <engine code> <message>" and "rounds <n>"; then lifts
//       the cap, writes Kept/1 and prints "after ok" or "after failed <message>". With observe,
//       a live query of Blob is open throughout, and "live ended" or "live failed <code>" is
//       printed when it ends after the failed block.
//   persist-crash-worker gdbm-recover <path> <limit-bytes>
//       Recovers the GDBM file (no backup) with the size of the files it writes capped at
//       limit-bytes, printing "recovered <keys>" or "failed <code> <message>".
//   persist-crash-worker gdbm-hold <path> <read-write|read-only>
//       Opens the store, prints "ready", and holds it open until standard input closes.

import Foundation

let modes: [String: ([String]) throws -> Void] = [
    "blocks": BlockMode.run,
    "merge": MergeMode.run,
    "update": UpdateMode.run,
    "unique": UniqueMode.run,
    "ids": IDMode.run,
    "cd-read": DirectoryMode.run,
    "gdbm-hold": HoldMode.run,
    "fill": FullMode.run,
    "gdbm-recover": RecoverMode.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let mode = modes[name] else {
    Worker.usage("<\(modes.keys.sorted().joined(separator: "|"))> …")
}
do {
    try mode(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("persist-crash-worker \(name): \(error)\n".utf8))
    exit(1)
}
