/// Turns each item a migration reads into the item it writes: ``MigrationOptions/decode``,
/// ``MigrationOptions/reshape``, then ``MigrationOptions/transform``. Used on one thread at a time
/// (each pass has its own).
///
/// The reshape works on rows: what the rules do to a (type, shape) is worked out once and kept, so
/// that a row costs one lookup and a reordering of its values. Rows the decode and the transform
/// return are given shared shapes again, so that the checks and the target's bulk path still see
/// few shapes.
struct MigrationTransform: Sendable {
    /// The reshape of one (type, shape): the new type and shape, and where each new value comes from.
    private struct ShapePlan: Sendable {
        let source: AttributeNames
        let itemType: String
        let names: AttributeNames
        /// For each new name, the index of its value in the source row.
        let sourceIndices: [Int]
        let collision: MigrationReshape.Collision?
        /// The indices of the rules that apply.
        let rules: [Int]
        /// Whether the row stays as it is.
        let unchanged: Bool
    }

    private struct ShapeKey: Hashable, Sendable {
        let itemType: String
        let shape: ObjectIdentifier
    }

    /// Plans and shapes kept at most; more are rare (readers without rows give each item its own shape).
    private static let cacheLimit = 4_096

    let reshape: MigrationReshape
    let transform: (@Sendable (Item) throws -> Item?)?
    let decode: (@Sendable (Item) throws -> Item)?
    private var plans: [ShapeKey: ShapePlan] = [:]
    private var lastKey: ShapeKey?
    private var lastPlan: ShapePlan?
    /// Shapes of transformed rows, by their names.
    private var shapes: [[String]: AttributeNames] = [:]
    /// How many items each rule of the reshape applied to.
    private(set) var ruleCounts: [Int]

    init(options: MigrationOptions) {
        reshape = options.reshape
        transform = options.transform
        decode = options.decode
        ruleCounts = Array(repeating: 0, count: options.reshape.rules.count)
    }

    /// Whether items change at all.
    var isActive: Bool { !reshape.isEmpty || transform != nil || decode != nil }

    /// Each rule with the number of items it applied to, in the order given.
    var ruleReports: [MigrationReport.RuleReport] {
        zip(reshape.rules, ruleCounts).map { MigrationReport.RuleReport(rule: $0, items: $1) }
    }

    /// The row to write for `row`, or `nil` when the transform leaves it out.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` naming the item when the reshape cannot
    ///   apply to it or the decode or the transform throws.
    mutating func apply(_ row: ItemRow) throws -> ItemRow? {
        var row = row
        if let decode { row = shared(try Self.calling(decode, on: row)) }
        if !reshape.isEmpty { row = try reshaped(row) }
        guard let transform else { return row }
        guard let item = try Self.calling(transform, on: row) else { return nil }
        return shared(item)
    }

    /// What `body` makes of the item of `row`; an error that does not name the item is made one that does.
    private static func calling<Result>(_ body: (Item) throws -> Result, on row: ItemRow) throws -> Result {
        do {
            return try body(row.item)
        } catch let error as DataStoreError where error.items.contains(row.reference) {
            // It names the item already.
            throw error
        } catch {
            throw DataStoreError(.invalidArgument, "the migration's transform failed on \(row.reference): \(error)",
                                 items: [row.reference])
        }
    }

    /// The item to write for `item`: the same as ``apply(_:)`` on its row.
    mutating func apply(_ item: Item) throws -> Item? {
        try apply(ItemRow(item)).map(\.item)
    }

    private mutating func reshaped(_ row: ItemRow) throws -> ItemRow {
        let key = ShapeKey(itemType: row.itemType, shape: ObjectIdentifier(row.names))
        let plan: ShapePlan
        if key == lastKey, let lastPlan {
            plan = lastPlan
        } else {
            plan = plans[key] ?? makePlan(row.itemType, row.names, key: key)
            lastKey = key
            lastPlan = plan
        }
        if let collision = plan.collision { throw collision.error(row.reference) }
        for rule in plan.rules { ruleCounts[rule] += 1 }
        if plan.unchanged { return row }
        var values: [Value] = []
        values.reserveCapacity(plan.sourceIndices.count)
        for index in plan.sourceIndices { values.append(row.values[index]) }
        return ItemRow(itemType: plan.itemType, id: row.id, names: plan.names, values: values)
    }

    private mutating func makePlan(_ itemType: String, _ names: AttributeNames, key: ShapeKey) -> ShapePlan {
        let rules = reshape.plan(for: itemType, names: names.names)
        var renamed: [(name: String, index: Int)] = []
        for (index, name) in names.names.enumerated() {
            if let newName = rules.newNames[name] { renamed.append((newName, index)) }
        }
        renamed.sort { ByteOrder.precedes($0.name, $1.name) }
        let newNames = renamed.map(\.name)
        // The same names in the same places: two attributes that swap names keep the names but
        // not the places of their values.
        let unchanged = rules.itemType == itemType && newNames == names.names
            && renamed.map(\.index) == Array(names.names.indices)
        let plan = ShapePlan(
            source: names, itemType: rules.itemType, names: unchanged ? names : shape(newNames),
            sourceIndices: renamed.map(\.index), collision: rules.collision,
            rules: rules.used.compactMap { reshape.rules.firstIndex(of: $0) }, unchanged: unchanged)
        // Readers without rows give every item a shape of its own: keep the cache bounded.
        if plans.count >= Self.cacheLimit { plans.removeAll(keepingCapacity: true) }
        plans[key] = plan
        return plan
    }

    /// The row of a transformed item (which holds no nulls), with a shape shared by every row of
    /// the same names.
    private mutating func shared(_ item: Item) -> ItemRow {
        let names = BinaryValueCoding.sortedKeys(item.attributes)
        var values: [Value] = []
        values.reserveCapacity(names.count)
        for name in names { values.append(item.attributes[name] ?? .null) }
        return ItemRow(itemType: item.itemType, id: item.id, names: shape(names), values: values)
    }

    private mutating func shape(_ names: [String]) -> AttributeNames {
        if let shape = shapes[names] { return shape }
        if shapes.count >= Self.cacheLimit { shapes.removeAll(keepingCapacity: true) }
        let shape = AttributeNames(sorted: names)
        shapes[names] = shape
        return shape
    }
}
