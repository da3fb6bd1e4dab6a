#if FUZZING
import CLibFuzzer
#endif
import Foundation

/// The `main` of a fuzz target, in both of its builds.
///
/// Built with `-sanitize=fuzzer -DFUZZING` (as `scripts/fuzz.sh` does), it hands the command line
/// to libFuzzer's driver, which calls `callback` with each input. Built normally, it is a small
/// tool that calls the same `callback` with every file named on the command line (or in a folder
/// named there), to replay a corpus or a crashing input, or that writes the target's seeds into a
/// folder with `--write-seeds <folder>`.
///
/// ```swift
/// @main
/// enum RecordsFuzz {
///     static func main() throws {
///         try FuzzDriver.run(seeds: seeds) { data, size in
///             exercise(FuzzDriver.bytes(data, size))
///             return 0
///         }
///     }
/// }
/// ```
public enum FuzzDriver {
    /// The function libFuzzer calls with each input; it returns 0.
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// Runs the fuzz target: libFuzzer in a fuzzing build, replay or seed writing otherwise.
    public static func run(seeds: () throws -> [[UInt8]], _ callback: Callback) throws {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        try replay(Array(CommandLine.arguments.dropFirst()), seeds: seeds, callback)
        #endif
    }

    /// The input libFuzzer passes, as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        data.map { [UInt8](UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    static func replay(_ arguments: [String], seeds: () throws -> [[UInt8]], _ callback: Callback) throws {
        let tool = URL(fileURLWithPath: CommandLine.arguments.first ?? "fuzz").lastPathComponent
        if arguments.first == "--write-seeds", arguments.count == 2 {
            let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let all = try seeds()
            for (index, seed) in all.enumerated() {
                try Data(seed).write(to: folder.appendingPathComponent("seed-\(index)"))
            }
            print("wrote \(all.count) seeds to \(folder.path)")
            return
        }
        if arguments.isEmpty || arguments.first == "--write-seeds" {
            FileHandle.standardError.write(Data("usage: \(tool) <input-file-or-folder>… | --write-seeds <folder>\n".utf8))
            exit(64)
        }
        for path in arguments {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(tool): no such file or folder: \(path)\n".utf8))
                exit(66)
            }
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil) : [url]
            for file in files {
                let input = [UInt8](try Data(contentsOf: file))
                _ = input.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
            }
            print("\(path): \(files.count) input(s) checked")
        }
    }
}
