/// A reader that tells how its store compares item type names.
///
/// Most stores take type names as Swift strings, so that two Unicode spellings of one name (`"é"`
/// as one scalar and as `e` with a combining accent) are one type; GDBM compares their UTF-8
/// bytes, so there they are two. A child store keys its changes the way its parent compares names,
/// so that it shows, and merges, exactly what its parent would. A reader that does not conform
/// compares names as Swift strings.
///
/// ```swift
/// extension MyReader: TypeNameComparing {
///     var comparesTypeNamesByBytes: Bool { true }
/// }
/// ```
package protocol TypeNameComparing {
    /// Whether two type names are one type only when their UTF-8 bytes are equal.
    var comparesTypeNamesByBytes: Bool { get }
}
