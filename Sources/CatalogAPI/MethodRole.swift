/// The least role a token needs to call a method (contract §2).
public struct MethodRole: Hashable, Sendable, Comparable, CustomStringConvertible {
    private let rank: Int
    /// The name used in `Schema/` and token files.
    public let name: String

    private init(rank: Int, name: String) {
        self.rank = rank
        self.name = name
    }

    /// No token needed (Health, Reflection).
    public static let none = MethodRole(rank: 0, name: "none")
    /// Every read and every Watch.
    public static let reader = MethodRole(rank: 1, name: "reader")
    /// Reader plus filter Select, SetPresentation and TogglePresentation.
    public static let writer = MethodRole(rank: 2, name: "writer")
    /// Everything.
    public static let admin = MethodRole(rank: 3, name: "admin")

    public static func < (lhs: MethodRole, rhs: MethodRole) -> Bool { lhs.rank < rhs.rank }

    public var description: String { name }
}
