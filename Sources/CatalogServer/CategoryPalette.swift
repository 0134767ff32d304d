/// The colours given to new categories without one (contract §3): the colour at the new
/// category's position modulo 12.
public enum CategoryPalette {
    public static let palette: [String] = [
        "#E91E63", "#F44336", "#9C27B0", "#4CAF50", "#2196F3", "#FF9800",
        "#795548", "#607D8B", "#009688", "#FFEB3B", "#3F51B5", "#FF5722",
    ]
}
