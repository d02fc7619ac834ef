/// Something a person can do about an error: try again, cancel, acknowledge, or a custom titled
/// action such as "Free up space" or "Buy more storage"; a presenter shows each as one action.
public struct RecoveryOption: Sendable {
    /// What kind of option it is; presenters use it for styling (a cancel button, a default button).
    public enum Role: Sendable, Hashable {
        /// Repeat the failed operation.
        case tryAgain
        /// Sign in again, for an error flagged `CodeFlags.reauthenticate`.
        case signIn
        /// Give up; recovery did not happen.
        case cancel
        /// Dismiss a message that offers no recovery ("OK").
        case acknowledge
        /// An application-defined action.
        case custom
    }

    /// A stable identifier, for tests and analytics (`"tryAgain"`, `"signIn"`, `"cancel"`, `"ok"`,
    /// or yours).
    public let id: String
    /// The button title.
    public let title: LocalizedText
    /// The option's kind.
    public let role: Role
    private let handler: @Sendable () -> Bool

    /// Creates an option.
    /// - Parameters:
    ///   - id: A stable identifier.
    ///   - title: The button title.
    ///   - role: The option's kind.
    ///   - perform: Runs the option; returns whether the error is recovered from.
    public init(id: String, title: LocalizedText, role: Role = .custom, perform: @escaping @Sendable () -> Bool) {
        self.id = id
        self.title = title
        self.role = role
        self.handler = perform
    }

    /// Runs the option.
    /// - Returns: Whether the error is recovered from.
    public func perform() -> Bool { handler() }

    /// "Try Again" / "重试".
    public static let tryAgainTitle = LocalizedText(english: "Try Again", simplifiedChinese: "重试")
    /// "Cancel" / "取消".
    public static let cancelTitle = LocalizedText(english: "Cancel", simplifiedChinese: "取消")
    /// "OK" / "好".
    public static let okTitle = LocalizedText(english: "OK", simplifiedChinese: "好")
    /// "Sign In" / "登录".
    public static let signInTitle = LocalizedText(english: "Sign In", simplifiedChinese: "登录")

    /// An option that runs `action` (typically the request again) and reports recovery.
    /// - Parameters:
    ///   - title: The title ("Try Again" by default).
    ///   - action: What trying again does.
    /// - Returns: The option, id `"tryAgain"`.
    public static func tryAgain(title: LocalizedText = tryAgainTitle, _ action: @escaping @Sendable () -> Void)
        -> RecoveryOption
    {
        RecoveryOption(id: "tryAgain", title: title, role: .tryAgain) {
            action()
            return true
        }
    }

    /// An option that starts signing in again (typically presenting the sign-in screen) and reports
    /// recovery.
    /// - Parameters:
    ///   - title: The title ("Sign In" by default).
    ///   - action: What signing in does.
    /// - Returns: The option, id `"signIn"`.
    public static func signIn(title: LocalizedText = signInTitle, _ action: @escaping @Sendable () -> Void)
        -> RecoveryOption
    {
        RecoveryOption(id: "signIn", title: title, role: .signIn) {
            action()
            return true
        }
    }

    /// An option that gives up (reports no recovery), optionally running `action`.
    /// - Parameters:
    ///   - title: The title ("Cancel" by default).
    ///   - action: Something to run on cancel, or `nil`.
    /// - Returns: The option, id `"cancel"`.
    public static func cancel(title: LocalizedText = cancelTitle, _ action: (@Sendable () -> Void)? = nil)
        -> RecoveryOption
    {
        RecoveryOption(id: "cancel", title: title, role: .cancel) {
            action?()
            return false
        }
    }

    /// An option that only dismisses (reports no recovery).
    /// - Parameter title: The title ("OK" by default).
    /// - Returns: The option, id `"ok"`.
    public static func ok(title: LocalizedText = okTitle) -> RecoveryOption {
        RecoveryOption(id: "ok", title: title, role: .acknowledge) { false }
    }

    /// A custom titled action that reports recovery after running.
    /// - Parameters:
    ///   - id: A stable identifier, e.g. `"freeSpace"`.
    ///   - title: The title, e.g. "Free Up Space" / "清理空间".
    ///   - action: What the option does.
    /// - Returns: The option.
    public static func custom(id: String, title: LocalizedText, _ action: @escaping @Sendable () -> Void)
        -> RecoveryOption
    {
        RecoveryOption(id: id, title: title, role: .custom) {
            action()
            return true
        }
    }
}
