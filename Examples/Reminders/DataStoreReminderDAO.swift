import Foundation
import Persist

/// The DAO implemented on a `DataStore`: each call is one asynchronous write block, and the
/// result handler's `TransactionStatus` becomes the block's commit or rollback.
struct DataStoreReminderDAO: ReminderDAO {
    let store: any DataStore

    private static let itemType = Reminder.itemType

    func listAllReminderItems(
        resultHandler: @escaping @Sendable ([ReminderItem]) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    ) {
        perform(completionHandler) { accessor in
            var request = DataStoreRequest(itemType: Self.itemType)
            request.setSort(byKey: "title", ascending: true)
            return resultHandler(try accessor.mutableItems(forRequest: request).map(StoredReminder.init))
        }
    }

    func retrieveReminderItem(
        reminderID: UUID,
        resultHandler: @escaping @Sendable (ReminderItem?) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    ) {
        perform(completionHandler) { accessor in
            let stored = Item(itemType: Self.itemType, id: try Reminder.itemID(for: reminderID))
            return resultHandler(try accessor.mutableVersion(ofItem: stored).map(StoredReminder.init))
        }
    }

    func insertReminderItem(
        resultHandler: @escaping @Sendable (ReminderItem) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    ) {
        perform(completionHandler) { accessor in
            let item = try accessor.createItem(ofType: Self.itemType, id: try Reminder.itemID(for: UUID()))
            return resultHandler(StoredReminder(item))
        }
    }

    private func perform(
        _ completionHandler: (@Sendable ((any Error)?) -> Void)?,
        _ body: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> TransactionStatus
    ) {
        store.writeAsync(body) { result in
            switch result {
            case .success: completionHandler?(nil)
            case .failure(let error): completionHandler?(error)
            }
        }
    }
}

/// A reminder backed by a mutable item of the write block.
final class StoredReminder: ReminderItem {
    private let item: MutableItem

    init(_ item: MutableItem) {
        self.item = item
    }

    var title: String? {
        get { item["title"]?.stringValue }
        set { item["title"] = newValue.map(Value.string) }
    }

    var completedTimestamp: Date? {
        get { item["completedTimestamp"]?.dateValue }
        set { item["completedTimestamp"] = newValue.map(Value.date) }
    }

    var reminderID: UUID? {
        if case .string(let text) = item.id { return UUID(uuidString: text) }
        return nil
    }
}
