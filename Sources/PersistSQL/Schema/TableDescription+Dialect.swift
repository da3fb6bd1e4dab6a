import Persist

extension TableDescription {
    /// The same table with every declared type (the key's too) translated by ``SQLTypeMapping``
    /// into `dialect`'s words.
    ///
    /// ```swift
    /// let onPostgres = description.translated(to: .postgresql)   // INTEGER → bigint, REAL → double precision
    /// ```
    package func translated(to dialect: SQLDialectName) -> TableDescription {
        var copy = self
        copy.columns = columns.map { column in
            var translated = column
            translated.declaredType = SQLTypeMapping.translate(column.declaredType, from: self.dialect, to: dialect)
            return translated
        }
        if var key {
            key.declaredType = SQLTypeMapping.translate(key.declaredType, from: self.dialect, to: dialect)
            copy.key = key
        }
        copy.dialect = dialect
        return copy
    }
}
