extension ModuleCode {
    /// The case name, e.g. `"wrongTeamCode"`, read through reflection metadata.
    ///
    /// Embedded Swift has no such metadata: there, implement ``ModuleCode/name`` yourself
    /// (the built-in modules do).
    public var name: String {
        String(describing: self)
    }
}
