import Foundation
import Persist

/// `fill <sqlite|gdbm> <path> <limit-bytes> <value-bytes>`: what a write block meets when the disk
/// fills up, without a disk to fill. Opens the store, writes Kept/0 and prints "kept"; then caps
/// the size of every file the process writes at `limit-bytes` (RLIMIT_FSIZE, with SIGXFSZ
/// ignored, so that a write past it fails with EFBIG, as one on a full disk fails with ENOSPC) and
/// writes blocks of three Blob items of `value-bytes` each, printing n after block n returns.
/// The first block that fails prints "failed <code> <engine code> <message>" and "rounds <n>";
/// then the limit is lifted (the space is freed) and one more block writes Kept/1, printing
/// "after ok" or "after failed <message>"; the store is torn down and the worker exits 0.
///
/// With `observe`, a live query of the Blob items is open from the start, and a thread runs read
/// blocks without a pause until one fails; once a block has failed, the worker waits until the
/// live query ends, printing "live ended" or "live failed <code>", and for the reading thread,
/// printing "reader failed <code>", before going on.
enum FullMode {
    static let usage = "fill <sqlite|gdbm> <path> <limit-bytes> <value-bytes> [observe]"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == "observe") else { Worker.usage(usage) }
        let limit = Worker.count(arguments, at: 2, default: 1, usage: usage)
        let size = Int(Worker.count(arguments, at: 3, default: 1, usage: usage))
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        try store.writeSync { try $0.insert(Item(itemType: "Kept", id: 0, attributes: ["note": .string("before")])) }
        Worker.report("kept")
        let liveQueryEnded = arguments.count == 5 ? observe(store) : nil
        let readerFailed = arguments.count == 5 ? readUntilFailure(store) : nil
        let unlimited = try Worker.capFileSizes(at: rlim_t(limit))
        var round = 0
        while true {
            do {
                try store.writeSync { accessor in
                    for index in 0..<3 {
                        try accessor.insert(Item(itemType: "Blob", id: .string("\(round)-\(index)"),
                                                 attributes: ["bytes": .bytes([UInt8](repeating: UInt8(index), count: size))]))
                    }
                }
                round += 1
                Worker.report("\(round)")
            } catch let error as DataStoreError {
                Worker.report("failed \(error.code) \(error.engineCode.map(String.init) ?? "-") \(error.message)")
                break
            }
        }
        liveQueryEnded?.wait()
        if let readerFailed { Worker.report("reader failed \(readerFailed())") }
        Worker.report("rounds \(round)")
        _ = try Worker.capFileSizes(at: unlimited)
        do {
            try store.writeSync { try $0.insert(Item(itemType: "Kept", id: 1, attributes: ["note": .string("after")])) }
            Worker.report("after ok")
        } catch {
            Worker.report("after failed \(error)")
        }
        try store.tearDown()
    }

    /// Starts a thread that runs read blocks of the Blob items one after another until one throws;
    /// the returned function waits for that and returns the error's code.
    private static func readUntilFailure(_ store: any DataStore) -> () -> String {
        let failed = DispatchSemaphore(value: 0)
        let code = Locked("")
        Thread.detachNewThread {
            while true {
                do {
                    _ = try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Blob")) }
                } catch {
                    code.withLock { $0 = (error as? DataStoreError).map { "\($0.code)" } ?? "\(error)" }
                    break
                }
            }
            failed.signal()
        }
        return {
            failed.wait()
            return code.withLock { $0 }
        }
    }

    /// Opens a live query of the Blob items and waits for its first result; the semaphore is
    /// signalled when the query ends, after its end is printed.
    private static func observe(_ store: any DataStore) -> DispatchSemaphore {
        let started = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        Task {
            var first = true
            do {
                for try await _ in store.observe(DataStoreRequest(itemType: "Blob")) where first {
                    first = false
                    started.signal()
                }
                Worker.report("live ended")
            } catch let error as DataStoreError {
                Worker.report("live failed \(error.code)")
            } catch {
                Worker.report("live failed \(error)")
            }
            if first { started.signal() }
            ended.signal()
        }
        started.wait()
        return ended
    }
}
