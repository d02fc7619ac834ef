extension ServerMessage {
    private static let shown = Locked(true)

    /// Whether descriptions use the server's message for a code the catalog does not list: a
    /// process-wide setting, `true` by default.
    ///
    /// When `true`, ``ModuleRespError``'s descriptions (`description`, `errorDescription`,
    /// ``ModuleRespError/errorDescription(in:)``, the `NSError` form, ``ErrorPresentation``) of an
    /// unrecognised module code (in the module's ranges but not listed) or of a code the catalog
    /// does not know show the server's message with the number, e.g.
    /// `Your team is full. (code 11219999)`, instead of the catalog's generic text
    /// ("Unrecognised Study group error (code 11219999)"). A code the catalog lists always shows
    /// the catalog's text. Set it to `false` to never show a server's text to people; the message
    /// is still kept and read through ``ModuleRespError/serverMessage``.
    public static var isShownInDescriptions: Bool {
        get { shown.withLock { $0 } }
        set { shown.withLock { $0 = newValue } }
    }
}
