import Persist

extension TableDescription {
    /// The same table with every declared type (the key's too) translated by ``SQLTypeMapping``
    /// into `dialect`'s words (a column of one of its enum types keeps the enum's name).
    ///
    /// ```swift
    /// let onPostgres = description.translated(to: .postgresql)   // INTEGER → bigint, REAL → double precision
    /// ```
    package func translated(to dialect: SQLDialectName) -> TableDescription {
        var copy = self
        let enumNames = Set(enumTypes.keys)
        copy.columns = columns.map { column in
            var translated = column
            translated.declaredType = SQLTypeMapping.translate(column.declaredType, from: self.dialect, to: dialect, enumTypes: enumNames)
            return translated
        }
        if var key {
            key.declaredType = SQLTypeMapping.translate(key.declaredType, from: self.dialect, to: dialect, enumTypes: enumNames)
            copy.key = key
        }
        copy.dialect = dialect
        return copy
    }
}
