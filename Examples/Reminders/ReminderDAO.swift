import Foundation
import Persist

/// The data access object of the reminders app: the interface the user interface talks to, as in
/// the DAO pattern. Every method is asynchronous; result handlers receive the data (and may change
/// it in place) and say whether to commit or roll back; completion handlers learn the outcome.
protocol ReminderDAO: Sendable {
    func listAllReminderItems(
        resultHandler: @escaping @Sendable ([ReminderItem]) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    )
    func retrieveReminderItem(
        reminderID: UUID,
        resultHandler: @escaping @Sendable (ReminderItem?) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    )
    func insertReminderItem(
        resultHandler: @escaping @Sendable (ReminderItem) -> TransactionStatus,
        completionHandler: (@Sendable ((any Error)?) -> Void)?
    )
}

/// One reminder as the user interface sees it: a reference type whose changes are saved when the
/// result handler returns `.commit`.
protocol ReminderItem: AnyObject {
    var title: String? { get set }
    var completedTimestamp: Date? { get set }
    var reminderID: UUID? { get }
}
