/// Binding a restaurant's columns as the raw baselines do.
extension RawStatement {
    /// Binds parameters 1 to 8 to the restaurant's identifier, name, city, rating, open (0 or 1),
    /// score, updated (seconds since 2001) and note (NULL when it has none).
    func bindColumns(of restaurant: BenchmarkRestaurant) {
        bind(1, Int64(restaurant.id))
        bind(2, restaurant.name)
        bind(3, restaurant.city)
        bind(4, Int64(restaurant.rating))
        bind(5, Int64(restaurant.open ? 1 : 0))
        bind(6, restaurant.score)
        bind(7, restaurant.updated.timeIntervalSinceReferenceDate)
        if let note = restaurant.note { bind(8, note) } else { bindNull(8) }
    }
}
