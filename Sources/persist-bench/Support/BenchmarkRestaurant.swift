import Foundation
import Persist

/// The standard benchmark item: a restaurant, deterministic from its number.
struct BenchmarkRestaurant: DataStoreEntity, Equatable {
    static let itemType = "Restaurant"

    var id: Int
    var name: String
    var city: String
    var rating: Int
    var open: Bool
    var score: Double
    var updated: Date
    var note: String?

    /// The 100 distinct cities the dataset uses.
    static let cities: [String] = (0..<100).map { "City \($0 < 10 ? "0" : "")\($0)" }

    /// The query scenarios' request number `query`: the restaurants of one city rated 2 or more,
    /// best score first, 50 of them (the SQL baselines run the same).
    static func queryRequest(_ query: Int) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: itemType)
        request.filter = .attribute("city") == .string(cities[query % 100]) && .attribute("rating") >= 2
        request.setSort(byKey: "score", ascending: false)
        request.limit = 50
        return request
    }

    /// Restaurant number `index` of the dataset: the same on every run.
    init(number index: Int) {
        id = index
        name = "Restaurant \(index)"
        city = Self.cities[(index &* 7919) % Self.cities.count]
        rating = (index &* 31) % 5
        open = index % 3 != 0
        score = Double((index &* 2_654_435_761) % 100_000) / 1_000
        updated = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 61.5)
        note = index % 4 == 0 ? nil : "note \(index % 997)"
    }

    init(id: Int, name: String, city: String, rating: Int, open: Bool, score: Double, updated: Date, note: String?) {
        self.id = id
        self.name = name
        self.city = city
        self.rating = rating
        self.open = open
        self.score = score
        self.updated = updated
        self.note = note
    }
}
