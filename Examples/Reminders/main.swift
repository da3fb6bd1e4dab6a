// Reminders: the data-access-object pattern on a DataStore. The DAO's result handlers change
// reminders in place and return .commit or .rollback; completion handlers report the outcome.
import Foundation
import Persist

let store: any DataStore = InMemoryDataStore()
try store.setup()
let dao: any ReminderDAO = DataStoreReminderDAO(store: store)

func report(_ step: String) -> @Sendable ((any Error)?) -> Void {
    { error in print("\(step): \(error.map { "failed, \($0)" } ?? "done")") }
}

func show() throws {
    let reminders = try store.read { accessor in try accessor.getAll(Reminder.self) }
    let lines = reminders.sorted { ($0.title ?? "") < ($1.title ?? "") }.map { reminder in
        "\(reminder.title ?? "untitled")\(reminder.completedTimestamp == nil ? "" : " (done)")"
    }
    print("reminders: \(lines.isEmpty ? "none" : lines.joined(separator: ", "))")
}

dao.insertReminderItem(resultHandler: { reminder in
    reminder.title = "Buy milk"
    return .commit
}, completionHandler: report("insert 'Buy milk'"))
dao.insertReminderItem(resultHandler: { reminder in
    reminder.title = "Call the bank"
    return .commit
}, completionHandler: report("insert 'Call the bank'"))
dao.insertReminderItem(resultHandler: { reminder in
    reminder.title = "Draft that will be discarded"
    return .rollback
}, completionHandler: report("insert a draft, then roll back"))
try store.flush()
try show()

dao.listAllReminderItems(resultHandler: { reminders in
    for reminder in reminders where reminder.title == "Buy milk" {
        reminder.completedTimestamp = Date(timeIntervalSinceReferenceDate: 800_000_000)
    }
    return .commit
}, completionHandler: report("complete 'Buy milk'"))
try store.flush()
try show()

let bankID = try store.read { accessor in
    try accessor.getAll(Reminder.self).first { $0.title == "Call the bank" }?.id
}
if let bankID {
    dao.retrieveReminderItem(reminderID: bankID, resultHandler: { reminder in
        reminder?.title = "Call the bank about the mortgage"
        return .commit
    }, completionHandler: report("rename 'Call the bank'"))
    try store.flush()
}
dao.retrieveReminderItem(reminderID: UUID(), resultHandler: { reminder in
    print("retrieving an unknown reminder gives \(reminder == nil ? "nothing" : "something")")
    return .rollback
}, completionHandler: report("retrieve an unknown reminder"))
try store.flush()
try show()
try store.tearDown()
