// Repository: one entity, several data sources (memory, then disk), read with a first-match
// strategy and written through to all — the repository pattern on Persist stores.
import Foundation
import Persist
import PersistSQLite

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persist-repository-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

// The disk already holds the catalogue from an earlier run.
let disk = SQLiteDataStore(path: directory.appendingPathComponent("books.sqlite").path)
try disk.setup()
let tolkien = Book.Author(name: "J. R. R.", surname: "Tolkien")
try disk.writeSync { accessor in
    try accessor.insert(Book(id: "978-0261103252", title: "The Lord of the Rings", authors: [tolkien],
                             published: Date(timeIntervalSince1970: -483_753_600)))
    try accessor.insert(Book(id: "978-0261102217", title: "The Hobbit", authors: [tolkien],
                             published: Date(timeIntervalSince1970: -1_017_878_400)))
}
let memory = InMemoryDataStore()
try memory.setup()

let books = Repository<Book>(
    sources: [StoreDataSource(name: "memory", store: memory), StoreDataSource(name: "disk", store: disk)],
    strategy: .firstMatch)

func titles(_ list: [Book]) -> String { list.map(\.title).joined(separator: ", ") }

let hobbit = try books.getById("978-0261102217")
print("getById: \(hobbit.entity?.title ?? "nothing") (from \(hobbit.from))")
let first = try books.getAll()
print("getAll: \(titles(first.entities)) (from \(first.from))")
let again = try books.getAll()
print("getAll again: \(titles(again.entities)) (from \(again.from))")

let silmarillion = Book(id: "978-0261102736", title: "The Silmarillion", authors: [tolkien],
                        published: Date(timeIntervalSince1970: 242_438_400))
try books.insert(silmarillion)
print("after insert, memory holds \(try StoreDataSource<Book>(name: "memory", store: memory).getAll().count) "
    + "and disk holds \(try StoreDataSource<Book>(name: "disk", store: disk).getAll().count) books")

try books.deleteById("978-0261103252")
let afterDelete = try books.getAll()
print("after deleteById: \(titles(afterDelete.entities)) (from \(afterDelete.from))")

let truthOnly = Repository<Book>(sources: books.sources, strategy: .lastSourceOnly)
let fromDisk = try truthOnly.getById("978-0261102736")
print("lastSourceOnly getById: \(fromDisk.entity?.title ?? "nothing") (from \(fromDisk.from))")
try memory.tearDown()
try disk.tearDown()
