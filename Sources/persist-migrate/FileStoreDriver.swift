import Foundation

/// A driver of stores that are files (SQLite databases and GDBM files), made for one file.
protocol FileStoreDriver: StoreDriver {
    /// The file as the command line resolved it.
    var plan: StorePlan { get }
}

extension FileStoreDriver {
    /// The file a copy into the target replaces. An existing target reached through a symbolic
    /// link is rebuilt beside the file the link points to, and replaces that file: the link stays,
    /// and the copy made of the old contents is a copy of the file, never a second link to it. A
    /// new target named by a link to a file not made yet is built where the link leads, and the
    /// link stays too.
    var finalPath: String {
        plan.exists ? FileSystem.canonical(plan.path) : FileSystem.danglingLinkDestination(plan.path) ?? plan.path
    }

    func removeLeftovers() {
        StagingFile.removeLeftovers(of: finalPath, companions: companionFiles)
    }

    /// Beside the target, which the run writes anyway.
    func scratchPlace(for name: String) -> (besides: String, folder: String) {
        (plan.path, "the target's folder")
    }
}
