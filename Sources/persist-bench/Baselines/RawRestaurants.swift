import Foundation

/// The raw baselines' view of the standard dataset's rows.
extension RawStatement {
    /// The columns the store creates for ``BenchmarkRestaurant``, key first, as a select list.
    static let restaurantColumns = #""persist_id", "name", "city", "rating", "open", "score", "updated", "note""#

    /// The restaurant in the current row of a statement selecting ``restaurantColumns``, built by hand.
    func restaurant() -> BenchmarkRestaurant {
        BenchmarkRestaurant(
            id: Int(int64(0)), name: string(1), city: string(2), rating: Int(int64(3)), open: int64(4) != 0,
            score: double(5), updated: Date(timeIntervalSinceReferenceDate: double(6)), note: isNull(7) ? nil : string(7))
    }
}
