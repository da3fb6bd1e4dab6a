import Foundation
import Persist

extension RandomData {
    /// What one round of the set-based differential test does.
    enum WriteRound {
        case delete
        case update([String: Value])
        case aggregate(String)
    }

    /// A random round: mostly updates and aggregates, some deletes.
    mutating func writeRound() -> WriteRound {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1: return .delete
        case 2, 3, 4, 5: return .update(setting())
        default: return .aggregate(attributeName())
        }
    }

    /// One or two attributes to set, usually from their own pool and sometimes from another
    /// kind's (every store holds any mix of kinds in an attribute), sometimes null (which removes
    /// the attribute).
    mutating func setting() -> [String: Value] {
        var values: [String: Value] = [:]
        for _ in 0..<Int.random(in: 1...2, using: &generator) {
            let (name, pool) = pick(RandomPools.schema)
            values[name] = chance(0.15) ? .null : pooledValue(pool)
        }
        return values
    }

    /// A value from `pool`, or now and then from another kind's pool, so that attributes mix kinds.
    mutating func pooledValue(_ pool: [Value]) -> Value {
        if extras.contains(.decimals) && chance(0.1) { return pick(RandomPools.decimals) }
        return chance(0.2) ? pick(pick(RandomPools.schema).pool) : pick(pool)
    }
}
