import Persist
import Testing

@Suite("EntityLayoutCache keeps one layout per plan, for the last eight plans")
struct EntityLayoutCacheTests {
    /// A layout that says which plan, and which making, it is.
    final class Made: Sendable {
        let plan: EntityPlan
        let number: Int
        init(_ plan: EntityPlan, _ number: Int) {
            self.plan = plan
            self.number = number
        }
    }

    static func plans(_ count: Int) -> [EntityPlan] {
        (0..<count).map { EntityPlan(itemType: "Layout\($0)", idKey: "id", names: ["id", "name"], extensions: 0) }
    }

    @Test("a plan's layout is made once and then found, even among other plans")
    func madeOnce() {
        let cache = EntityLayoutCache<Made>()
        var made = 0
        let plans = Self.plans(3)
        for _ in 0..<4 {
            for plan in plans {
                let layout = cache.layout(for: plan) {
                    made += 1
                    return Made(plan, made)
                }
                #expect(layout.plan === plan)
            }
        }
        #expect(made == 3)
    }

    @Test("a ninth plan makes the cache forget the plan used first, which is made again")
    func capacity() {
        let cache = EntityLayoutCache<Made>()
        var made = 0
        func layout(_ plan: EntityPlan) -> Made {
            cache.layout(for: plan) {
                made += 1
                return Made(plan, made)
            }
        }
        let plans = Self.plans(9)
        let first = layout(plans[0])
        for plan in plans.dropFirst() { _ = layout(plan) }
        #expect(made == 9)
        #expect(layout(plans[8]).number == 9)
        #expect(layout(plans[0]).number == 10)
        #expect(first.number == 1)
    }
}
