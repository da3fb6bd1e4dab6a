extension MigrationReport {
    /// A column whose declared type could not keep a value of the source, and the lossless type it
    /// took instead (see <doc:SchemaFaithfulMigrations>).
    ///
    /// ```swift
    /// for fallback in report.fallbacks {
    ///     print("\(fallback.itemType).\(fallback.column): \(fallback.declaredType) → \(fallback.fallbackType)")
    /// }
    /// ```
    public struct Fallback: Sendable, Hashable, Codable {
        /// The item type (table).
        public var itemType: String
        /// The column.
        public var column: String
        /// The declared type the column had in the source.
        public var declaredType: String
        /// What the column was declared as instead.
        public var fallbackType: String
        /// The first value that did not fit, briefly.
        public var example: String

        /// A fallback record.
        public init(itemType: String, column: String, declaredType: String, fallbackType: String, example: String) {
            self.itemType = itemType
            self.column = column
            self.declaredType = declaredType
            self.fallbackType = fallbackType
            self.example = example
        }
    }
}
