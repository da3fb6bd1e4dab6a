import Foundation
import Persist

extension RelationDifferentialTests {
    /// The reads one check asks, drawn over the model: each answered by the store in one read
    /// block and by the model.
    struct Reads {
        var related: [(Item, DataStoreRelation)] = []
        var referring: [(Item, DataStoreRelation)] = []
        var included: [(DataStoreRequest, [DataStoreInclude])] = []
        var filtered: [DataStoreRequest] = []
    }

    /// What the store answered to ``Reads``, in their order.
    struct Answers {
        var related: [Item?] = []
        var referring: [[Item]] = []
        var included: [IncludedItems] = []
        var filtered: [([Item], Int)] = []
    }

    /// Checks `relatedItem(of:via:)`, `items(relatedTo:via:)`, `items(forRequest:including:)` and
    /// requests with related filters, drawn at random, against the model.
    static func checkReads(_ store: any DataStore, _ model: ReferenceRelations, _ writes: inout RandomRelationWrites,
                           after number: Int, run: inout Run) throws {
        let reads = draw(over: model, &writes)
        let answers = try store.read { (accessor: DataStoreReadAccessor) throws in
            var answers = Answers()
            for (item, relation) in reads.related { answers.related.append(try accessor.relatedItem(of: item, via: relation)) }
            for (item, relation) in reads.referring { answers.referring.append(try accessor.items(relatedTo: item, via: relation)) }
            for (request, includes) in reads.included {
                answers.included.append(try accessor.items(forRequest: request, including: includes))
            }
            for request in reads.filtered {
                answers.filtered.append((try accessor.items(forRequest: request), try accessor.countItems(forRequest: request)))
            }
            return answers
        }
        let when = "after block #\(number)"
        for ((item, relation), answer) in zip(reads.related, answers.related) {
            let expected = model.relatedItem(of: item, via: relation)
            if answer != expected {
                run.record("\(when): relatedItem(of: \(item.reference), via: \(relation.name)) is \(describe(answer)), not \(describe(expected))")
            }
        }
        for ((item, relation), answer) in zip(reads.referring, answers.referring) {
            let expected = model.referrers(of: item.id, via: relation)
            if answer != expected {
                run.record("\(when): items(relatedTo: \(item.reference), via: \(relation.name)) are \(answer.map(\.id)), "
                           + "not \(expected.map(\.id))")
            }
        }
        for ((request, includes), answer) in zip(reads.included, answers.included) {
            if let difference = difference(answer, model, request, includes) {
                run.record("\(when): items(forRequest: \(RandomRelationWrites.Write.describe(request)), including: \(includes)) "
                           + difference)
            }
        }
        for (request, answer) in zip(reads.filtered, answers.filtered) {
            let expected = model.items(forRequest: request)
            if answer.0 != expected || answer.1 != expected.count {
                run.record("\(when): \(RandomRelationWrites.Write.describe(request)) selects \(answer.0.map(\.id)) "
                           + "(count \(answer.1)), not \(expected.map(\.id))")
            }
        }
    }

    /// A few items per relation to follow both ways, one request with every include per type,
    /// and three requests through related filters.
    static func draw(over model: ReferenceRelations, _ writes: inout RandomRelationWrites) -> Reads {
        var reads = Reads()
        for relation in model.relations {
            let referrers = model.items(ofType: relation.itemType).shuffled(using: &writes.generator)
            reads.related += referrers.prefix(3).map { ($0, relation) }
            let referred = model.items(ofType: relation.relatedType).shuffled(using: &writes.generator)
            reads.referring += referred.prefix(3).map { ($0, relation) }
        }
        for itemType in RandomRelationWrites.itemTypes {
            var request = DataStoreRequest(itemType: itemType)
            if writes.chance(0.5) { request.filter = .attribute("rank") < .int(Int64(writes.number(1...4))) }
            if writes.chance(0.3) { request.setSort(byKey: "rank", ascending: writes.chance(0.5)) }
            if writes.chance(0.3) { request.limit = writes.number(1...6) }
            let includes = model.relations.filter { $0.itemType == itemType }.map { DataStoreInclude.related(via: $0) }
                + model.relations.filter { $0.relatedType == itemType }.map { DataStoreInclude.referring(via: $0) }
            reads.included.append((request, includes))
        }
        for _ in 0..<3 {
            let itemType = writes.pick(RandomRelationWrites.itemTypes)
            var request = DataStoreRequest(itemType: itemType)
            if let filter = writes.relatedFilter(from: itemType) { request.relatedFilters = [filter] }
            if writes.chance(0.3), let second = writes.relatedFilter(from: itemType) { request.relatedFilters.append(second) }
            reads.filtered.append(request)
        }
        return reads
    }

    /// How `answer` differs from the model's answer to `request` with `includes`, if it does.
    static func difference(_ answer: IncludedItems, _ model: ReferenceRelations, _ request: DataStoreRequest,
                           _ includes: [DataStoreInclude]) -> String? {
        let expected = model.items(forRequest: request)
        guard answer.items == expected else { return "selects \(answer.items.map(\.id)), not \(expected.map(\.id))" }
        for item in expected {
            for include in includes {
                switch include {
                case .related(let relation):
                    let want = model.relatedItem(of: item, via: relation)
                    let got = answer.relatedItem(of: item, via: relation)
                    if got != want { return "gives \(describe(got)) as \(item.reference)'s \(include), not \(describe(want))" }
                case .referring(let relation):
                    let want = model.referrers(of: item.id, via: relation)
                    let got = answer.items(relatedTo: item, via: relation)
                    if got != want { return "gives \(got.map(\.id)) as \(item.reference)'s \(include), not \(want.map(\.id))" }
                }
            }
        }
        return nil
    }

    static func describe(_ item: Item?) -> String {
        item.map { "\($0)" } ?? "nil"
    }
}
