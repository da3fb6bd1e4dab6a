import Persist

/// The contract tests, by section.
public enum ConformanceSuite {
    /// Every test that applies to the factory's capabilities, optionally only some sections.
    public static func tests(
        for factory: StoreFactory,
        in groups: Set<ConformanceTest.Group> = Set(ConformanceTest.Group.allCases)
    ) -> [ConformanceTest] {
        all.filter { groups.contains($0.group) && factory.capabilities.isSuperset(of: $0.requires) }
    }

    /// Every test in the suite.
    public static var all: [ConformanceTest] {
        LifecycleTests.all + ItemTests.all + BlockTests.all + ConcurrencyTests.all + LiveQueryTests.all
            + RequestTests.all + EntityTests.all + DifferentialTests.all + EntityDifferentialTests.all
            + ChildStoreTests.all + IdentifierTests.all + SetWriteTests.all + AggregateTests.all + IndexTests.all
            + MixedIndexTests.all + UniqueErrorTests.all + SpellingRollbackTests.all + MergeUniqueTests.all + MutableFlushTests.all
            + ChildReentrancyTests.all + EntityLifetimeTests.all + EntityKeyOrderTests.all + EntitySpellingTests.all + MixedKindTests.all
            + EntityNullTests.all + EntityClassTests.all + EntityNumberTests.all + EntityDecimalTests.all
            + CompositeIdentifierTests.all + EntityCompositeIDTests.all + ExactDecimalTests.all
            + EntityCompositeDifferentialTests.all + RelationTests.all + RelationRuleTests.all + RelationFollowTests.all + RelationDifferentialTests.all
    }
}
