import Persist

/// Turns the catalog's relations and columns into item types: tables the store created, as its
/// metadata records them, and adopted tables, by their declared types.
struct SchemaBuilder {
    var schema: StoreSchema
    let metadata: SchemaLoader.Metadata
    let defaultCollationIsBytewise: Bool
    /// The enum and array types columns may have.
    var catalogTypes = CatalogTypes()

    init(schema: StoreSchema, metadata: SchemaLoader.Metadata, defaultCollationIsBytewise: Bool) {
        self.schema = schema
        self.metadata = metadata
        self.defaultCollationIsBytewise = defaultCollationIsBytewise
    }

    /// Adds one relation: as an item type, as a skipped relation, or not at all (the store's own
    /// metadata tables, indexes, sequences, composite types).
    mutating func add(_ relation: Relation, columns: [CatalogColumn], key keyNames: [String]?, isGuarded: Bool) {
        func skip(_ reason: SkippedTable.Reason) {
            schema.skipped.append(SkippedTable(name: relation.name, reason: reason))
        }
        switch relation.kind {
        case "v": return skip(.view)
        case "m": return skip(.materializedView)
        case "f": return skip(.foreignTable)
        case "r", "p": break
        default: return
        }
        if [StoreSchema.tablesTable, StoreSchema.columnsTable, StoreSchema.indexesTable, StoreSchema.relationsTable]
            .contains(relation.name) { return }
        if let clash = NameSpellings.clash(in: columns.map(\.name)) {
            return skip(.ambiguousName(NameSpellings.columnClash(clash.earlier, clash.later)))
        }
        if relation.isPartition { return skip(.partition) }
        if relation.hasInheritors { return skip(.inheritedFrom) }
        guard let keyNames, !keyNames.isEmpty else {
            // Row locations tell rows apart only within one table: a partitioned table's rows are
            // in several.
            if relation.kind == "p" { return skip(.noUsableKey("it is a partitioned table without a primary key")) }
            return register(relation, columns: columns, created: nil, recorded: [:],
                            rowKey: TableKey(rowLocationAvoiding: Set(columns.map(\.name))), isGuarded: isGuarded)
        }
        var keyColumns: [CatalogColumn] = []
        for name in keyNames {
            guard let keyColumn = columns.first(where: { $0.name == name }) else {
                return skip(.noUsableKey("its primary key column \(String(reflecting: name)) is not readable"))
            }
            // Identifiers are compared by their bytes; a key whose collation finds distinct strings
            // equal ("Rust" and "rust") would let a write or a delete of one reach the other's row.
            guard keyColumn.isDeterministic else {
                return skip(.noUsableKey("its primary key \(String(reflecting: name)) has the nondeterministic "
                    + "collation \(String(reflecting: keyColumn.collation)), under which distinct identifiers are one key"))
            }
            keyColumns.append(keyColumn)
        }
        guard keyColumns.count == 1, let keyColumn = keyColumns.first else {
            return addComposite(relation, columns: columns, keyColumns: keyColumns, isGuarded: isGuarded)
        }
        let key = (count: 1, column: keyColumn.name)
        // A record counts only for the table the store made: a key column of the name and type it
        // was made with. Legacy code that dropped the table and made another of the same name (or
        // renamed another table to it) made an adopted table, whose recorded columns are stale too.
        let madeByStore = metadata.tables[relation.name].map { record in
            key.column == TableSchema.createdKeyColumn && keyColumn.baseTypeOID == record.keyKind.columnType.builtinOID
        } ?? true
        let created = madeByStore ? metadata.tables[relation.name] : nil
        let recorded = madeByStore ? metadata.columns[relation.name] ?? [:] : [:]
        let keyType: ColumnType
        if let created, key.column == TableSchema.createdKeyColumn {
            keyType = created.keyKind.columnType
        } else if recorded[key.column]?.kind == .mixed, keyColumn.baseTypeOID == PGType.bytea {
            // The key of a recreated table that fell back to the tagged encoding.
            keyType = .mixed
        } else if let mapped = columnType(of: keyColumn), mapped.isUsableKey {
            keyType = mapped
        } else {
            return skip(.noUsableKey("its primary key \(String(reflecting: key.column)) has a type identifiers do not "
                + "fit (they are integers, text, bytea or uuid)"))
        }
        // Results report a domain's base type.
        let keySchema = ColumnSchema(attribute: key.column, name: key.column, type: keyType, typeOID: keyColumn.baseTypeOID,
                                     isCreated: created != nil, isIdentityAlways: keyColumn.isIdentityAlways)
        register(relation, columns: columns, created: created, recorded: recorded, rowKey: TableKey(column: keySchema),
                 isGuarded: isGuarded)
    }

    /// Adopts a table whose primary key has several columns: its identifiers are composite.
    private mutating func addComposite(_ relation: Relation, columns: [CatalogColumn], keyColumns: [CatalogColumn],
                                       isGuarded: Bool) {
        let recorded = metadata.tables[relation.name] == nil ? metadata.columns[relation.name] ?? [:] : [:]
        var key: [ColumnSchema] = []
        for column in keyColumns {
            let type: ColumnType
            if recorded[column.name]?.kind == .mixed, column.baseTypeOID == PGType.bytea {
                // A key column of a recreated table that fell back to the tagged encoding.
                type = .mixed
            } else if let mapped = columnType(of: column), mapped.isUsableKey {
                type = mapped
            } else {
                return schema.skipped.append(SkippedTable(name: relation.name, reason: .noUsableKey(
                    "its primary key column \(String(reflecting: column.name)) has a type identifiers do not fit "
                        + "(they are integers, text, bytea or uuid)")))
            }
            key.append(ColumnSchema(attribute: column.name, name: column.name, type: type, typeOID: column.baseTypeOID,
                                    isCreated: false, isIdentityAlways: column.isIdentityAlways))
        }
        register(relation, columns: columns, created: nil, recorded: recorded, rowKey: TableKey(composite: key),
                 isGuarded: isGuarded)
    }

    /// Adds the item type of `relation` keyed by `rowKey`, with its attribute columns.
    private mutating func register(_ relation: Relation, columns: [CatalogColumn],
                                   created: (itemType: String, keyKind: KeyKind)?,
                                   recorded: [String: (attribute: String, kind: CreatedKind)], rowKey: TableKey,
                                   isGuarded: Bool) {
        func skip(_ reason: SkippedTable.Reason) {
            schema.skipped.append(SkippedTable(name: relation.name, reason: reason))
        }
        let itemType = created?.itemType ?? relation.name
        if let existing = schema.tables[itemType] {
            // A table named like a long or reserved item type the store mapped elsewhere.
            if existing.isCreated, created == nil, existing.itemType.utf8.elementsEqual(itemType.utf8) {
                return skip(.noUsableKey("its name is the item type of the table \(String(reflecting: existing.name))"))
            }
            // Another spelling of a table's name (or item type) met first: the table the store
            // created is kept, else the one met first.
            guard created != nil, !existing.isCreated else {
                return skip(.ambiguousName(NameSpellings.tableClash(kept: existing.name, skipped: relation.name)))
            }
            schema.tables[itemType] = nil
            schema.skipped.append(SkippedTable(name: existing.name, reason: .ambiguousName(
                NameSpellings.tableClash(kept: relation.name, skipped: existing.name))))
        }
        let keyNames = Set(rowKey.columns.map(\.name))
        var attributes: [ColumnSchema] = []
        var reserved: [String: String] = [:]
        for name in keyNames {
            reserved[name] = rowKey.isComposite ? "it names a column of the table's primary key"
                : "it names the table's primary key column"
        }
        var taken: Set<String> = []
        for column in columns {
            taken.insert(column.name)
            if keyNames.contains(column.name) { continue }
            if column.isGenerated {
                reserved[column.name] = "it names a generated column, which cannot be written"
                continue
            }
            // A record counts only for a column of the type it was made with: legacy code that
            // dropped the column and added another of the same name made an adopted column.
            if let (attribute, kind) = recorded[column.name], column.baseTypeOID == createdTypeOID(of: kind) {
                attributes.append(ColumnSchema(attribute: attribute, name: column.name, type: kind.columnType,
                                               typeOID: column.baseTypeOID, isCreated: true, hasDefault: column.hasDefault))
            } else if let type = columnType(of: column) {
                attributes.append(ColumnSchema(attribute: column.name, name: column.name, type: type,
                                               typeOID: column.baseTypeOID, isCreated: false, hasDefault: column.hasDefault,
                                               isIdentityAlways: column.isIdentityAlways))
            } else {
                reserved[column.name] = TableSchema.unmappedReason
            }
        }
        // A recorded attribute wins over a column of the same name added by other means.
        var seen: Set<String> = []
        attributes = attributes.filter { $0.isCreated }.filter { seen.insert($0.attribute).inserted }
            + attributes.filter { !$0.isCreated && !seen.contains($0.attribute) }
        attributes.sort { lhs, rhs in
            (columns.firstIndex { $0.name == lhs.name } ?? 0) < (columns.firstIndex { $0.name == rhs.name } ?? 0)
        }
        for column in attributes { reserved[column.attribute] = nil }
        // A column other SQL added to a table the store created is adopted: its declared type may
        // change a value (a numeric(10,2) rounds), its default fills an insert that leaves it out,
        // and its NOT NULL may refuse one, so the table is written as an adopted one.
        let hasAdoptedColumns = attributes.contains { !$0.isCreated }
        schema.tables[itemType] = TableSchema(
            itemType: itemType, name: relation.name, schema: schema.name,
            key: rowKey.columns.first ?? TableKey.locatorColumn(named: rowKey.locatorName ?? TableKey.locatorColumn),
            keyKind: created?.keyKind, columns: attributes, columnOrder: columns.map(\.name), takenNames: taken,
            reservedAttributes: reserved, writes: created == nil || isGuarded || hasAdoptedColumns ? .checked : .direct,
            rowKey: rowKey)
    }

    /// The OID of the type the store makes a column of `kind` with.
    private func createdTypeOID(of kind: CreatedKind) -> UInt32 {
        kind == .date ? schema.dateTypeOID ?? 0 : kind.columnType.builtinOID
    }

    /// The type Persist maps a declared type to; `nil` for types it does not map.
    func columnType(of column: CatalogColumn) -> ColumnType? {
        columnType(of: column, oid: column.baseTypeOID)
    }

    /// The type of `column` (or of its array's elements) when its type is `oid`.
    private func columnType(of column: CatalogColumn, oid: UInt32) -> ColumnType? {
        let modifier = column.typeModifier
        if let labels = catalogTypes.enumLabels[oid] { return .enumeration(oid: oid, labels: labels) }
        if let element = catalogTypes.arrayElements[oid] {
            // Arrays of arrays do not exist; an array of a mapped element type maps.
            guard catalogTypes.arrayElements[element] == nil, let elementType = columnType(of: column, oid: element),
                  elementType != .persistDate else { return nil }
            return .array(element: elementType, oid: oid)
        }
        switch oid {
        case PGType.bool: return .boolean
        case PGType.int2: return .smallint
        case PGType.int4: return .integer
        case PGType.int8: return .bigint
        case PGType.numeric:
            guard modifier >= 4 else { return .numeric(precision: nil, scale: nil) }
            // The scale is an 11-bit two's complement number: PostgreSQL 15 allows -1000...1000.
            let scale = Int((modifier - 4) & 0x7FF)
            return .numeric(precision: Int((modifier - 4) >> 16 & 0xFFFF), scale: scale > 1023 ? scale - 2048 : scale)
        case PGType.float4: return .real
        case PGType.float8: return .doublePrecision
        case PGType.text, PGType.varchar:
            return .text(maxLength: modifier >= 4 ? Int(modifier - 4) : nil, byteOrdered: isBytewise(column))
        case PGType.bpchar:
            guard modifier >= 5 else { return nil }
            return .character(length: Int(modifier - 4))
        case PGType.bytea: return .bytea
        case PGType.date: return .date
        case PGType.timestamp: return .timestamp
        case PGType.timestamptz: return .timestamptz
        case PGType.uuid: return .uuid
        case PGType.json: return .json
        case PGType.jsonb: return .jsonb
        case PGType.time: return .time
        case PGType.timetz: return .timetz
        case PGType.interval: return .interval
        case PGType.inet: return .inet
        case PGType.cidr: return .cidr
        case PGType.macaddr: return .macaddr
        case PGType.macaddr8: return .macaddr8
        case let oid where oid != 0 && oid == schema.dateTypeOID: return .persistDate
        default: return nil
        }
    }

    /// Whether a text column's collation compares UTF-8 bytes (and equal means equal bytes).
    private func isBytewise(_ column: CatalogColumn) -> Bool {
        switch column.collation {
        case "C", "POSIX", "ucs_basic": true
        case "default", "": defaultCollationIsBytewise
        default: false
        }
    }
}

extension ColumnType {
    /// Whether identifiers fit a key column of this type.
    var isUsableKey: Bool {
        switch self {
        case .smallint, .integer, .bigint, .text, .character, .bytea, .uuid, .mixed: true
        default: false
        }
    }
}
