import Persist

/// A table description as a ``Value``, so that a schemaless store can carry it (a native GDBM
/// file keeps the descriptions of the tables it received in a record of its own; see its format
/// article). The object has the keys `type`, `key` (a column, or absent), `columns`, `indexes`,
/// `uniqueConstraints` (arrays of column names; absent in files written before it existed, and
/// when there are none), `withoutRowid`, `keyPosition`, `dialect`, `primaryKey` (the column names
/// of a key over several columns; absent when there is none), `keyless` (`true` for a table
/// with no key; absent otherwise) and `enumTypes` (an object of PostgreSQL enum names to their
/// labels; absent when there are none); a column is
/// `{name, type, notNull, unique}`, an index `{name, columns, unique}`.
extension TableDescription {
    package var value: Value {
        var object: [String: Value] = [
            "type": .string(itemType), "columns": .array(columns.map(Self.value)),
            "indexes": .array(indexes.map { .object(["name": .string($0.name), "columns": .array($0.columns.map(Value.string)),
                                                     "unique": .bool($0.unique)]) }),
            "withoutRowid": .bool(withoutRowid), "keyPosition": .int(Int64(keyPosition)), "dialect": .string(dialect.rawValue),
        ]
        if let key { object["key"] = Self.value(key) }
        if !primaryKey.isEmpty { object["primaryKey"] = .array(primaryKey.map(Value.string)) }
        if isKeyless { object["keyless"] = .bool(true) }
        if !enumTypes.isEmpty {
            object["enumTypes"] = .object(enumTypes.mapValues { .array($0.map(Value.string)) })
        }
        if !uniqueConstraints.isEmpty {
            object["uniqueConstraints"] = .array(uniqueConstraints.map { .array($0.map(Value.string)) })
        }
        return .object(object)
    }

    private static func value(_ column: Column) -> Value {
        .object(["name": .string(column.name), "type": .string(column.declaredType), "notNull": .bool(column.notNull),
                 "unique": .bool(column.unique)])
    }

    /// The description a ``value`` holds; `nil` when it is not one.
    package init?(value: Value) {
        guard case .object(let object) = value, case .string(let itemType)? = object["type"],
              case .array(let columnValues)? = object["columns"], case .array(let indexValues)? = object["indexes"],
              case .bool(let withoutRowid)? = object["withoutRowid"], case .int(let keyPosition)? = object["keyPosition"],
              case .string(let dialectName)? = object["dialect"], let dialect = SQLDialectName(rawValue: dialectName)
        else { return nil }
        var columns: [Column] = []
        for columnValue in columnValues {
            guard let column = Self.column(columnValue) else { return nil }
            columns.append(column)
        }
        var indexes: [Index] = []
        for indexValue in indexValues {
            guard case .object(let index) = indexValue, case .string(let name)? = index["name"],
                  case .array(let names)? = index["columns"], case .bool(let unique)? = index["unique"] else { return nil }
            guard let columnNames = Self.names(names) else { return nil }
            indexes.append(Index(name: name, columns: columnNames, unique: unique))
        }
        var uniqueConstraints: [[String]] = []
        if let constraintsValue = object["uniqueConstraints"] {
            guard case .array(let constraintValues) = constraintsValue else { return nil }
            for constraintValue in constraintValues {
                guard case .array(let names) = constraintValue, let columnNames = Self.names(names) else { return nil }
                uniqueConstraints.append(columnNames)
            }
        }
        var primaryKey: [String] = []
        if let keyValue = object["primaryKey"] {
            guard case .array(let names) = keyValue, let columnNames = Self.names(names) else { return nil }
            primaryKey = columnNames
        }
        var isKeyless = false
        if let keylessValue = object["keyless"] {
            guard case .bool(let flag) = keylessValue else { return nil }
            isKeyless = flag
        }
        var enumTypes: [String: [String]] = [:]
        if let enumsValue = object["enumTypes"] {
            guard case .object(let enums) = enumsValue else { return nil }
            for (name, labelsValue) in enums {
                guard case .array(let labels) = labelsValue, let names = Self.names(labels) else { return nil }
                enumTypes[name] = names
            }
        }
        var key: Column?
        if let keyValue = object["key"] {
            guard let column = Self.column(keyValue) else { return nil }
            key = column
        }
        self.init(itemType: itemType, key: key, columns: columns, indexes: indexes, uniqueConstraints: uniqueConstraints,
                  withoutRowid: withoutRowid, keyPosition: Int(keyPosition), dialect: dialect, primaryKey: primaryKey,
                  isKeyless: isKeyless)
        self.enumTypes = enumTypes
    }

    /// The strings of `values`; `nil` when one is not a string.
    private static func names(_ values: [Value]) -> [String]? {
        var names: [String] = []
        for value in values {
            guard case .string(let name) = value else { return nil }
            names.append(name)
        }
        return names
    }

    private static func column(_ value: Value) -> Column? {
        guard case .object(let column) = value, case .string(let name)? = column["name"],
              case .string(let type)? = column["type"], case .bool(let notNull)? = column["notNull"],
              case .bool(let unique)? = column["unique"] else { return nil }
        return Column(name: name, declaredType: type, notNull: notNull, unique: unique)
    }
}
