// Code outside the package that tries to reach the engine of an open store. Every function below
// must fail to type-check: the tests count one error per function.
import Persist

func writeAroundTheQueue(_ store: InMemoryDataStore) throws {
    _ = try store.scheduler.engine.write { _ in ((), true) }
}

func readTheEngine(_ store: any EngineBackedDataStore) -> String {
    store.scheduler.engine.location
}

func runABlockDirectly(_ store: InMemoryDataStore) throws {
    try store.scheduler.writeSync { _ in }
}

func reachAChildsEngine(_ child: ChildDataStore) {
    _ = child.engine
}
