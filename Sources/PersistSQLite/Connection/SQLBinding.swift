/// A value bound to a `?` parameter of a statement. Values never appear in SQL text.
enum SQLBinding: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}
