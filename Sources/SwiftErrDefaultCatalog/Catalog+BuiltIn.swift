// The built-in catalog: the static C table generated from catalog/default.json, as a `Catalog`.

import CErrCore
import CErrDefaultCatalog
import SwiftErrCore

extension Catalog {
    /// The built-in catalog (`errcore_default_table()`, generated from `catalog/default.json`):
    /// success `0`, eight base codes and seven example modules (account to study group). Wraps the
    /// static C data without copying it; the seven module enums of this product (``StudyGroupCode``
    /// and the others) are classified through it.
    ///
    /// It is not SwiftErr's process-wide catalog unless an app installs it; then modules defined in
    /// Swift are registered on top of it:
    /// <!-- listing: context=app -->
    /// ```swift
    /// try Catalog.install(.builtIn)
    /// ```
    /// Its editable form is `Catalog.builtIn.definition`.
    public static let builtIn = Catalog(generatedTable: errcore_default_table(), name: "default")
}
