/// The category colours of the contract (§3): a new category without a colour takes the one at
/// its position modulo 12. The Palette method answers these.
public enum CategoryPalette {
    /// `#RRGGBB`, upper-case, in contract order.
    public static let palette: [String] = [
        "#E91E63", "#F44336", "#9C27B0", "#4CAF50", "#2196F3", "#FF9800",
        "#795548", "#607D8B", "#009688", "#FFEB3B", "#3F51B5", "#FF5722",
    ]

    /// The palette colour for a category at `position`.
    public static func color(forPosition position: Int) -> String {
        palette[((position % palette.count) + palette.count) % palette.count]
    }
}
