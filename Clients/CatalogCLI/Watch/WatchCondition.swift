import CatalogKit
import Foundation

/// A state that `filter watch --until` waits for: `selected=3` (an option id),
/// `selected=Data` (an option title, case-insensitive), `selected=all`, or
/// `presentation=collapsed` / `presentation=expanded`.
///
/// ```swift
/// let condition = try WatchCondition(parsing: "selected=3")
/// condition.isMet(by: state)   // true once option 3 is selected
/// ```
package struct WatchCondition: Hashable, Sendable, CustomStringConvertible {
    private enum Test: Hashable, Sendable {
        case selectedAll
        case selectedID(Int64)
        case selectedTitle(String)
        case presentation(FilterPresentation)
    }

    private let test: Test
    package let description: String

    /// The condition `text` states.
    ///
    /// - Throws: ``CLIFailure`` (usage) for anything but `selected=…` and `presentation=…`.
    package init(parsing text: String) throws(CLIFailure) {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[1].isEmpty else {
            throw .usage("--until '\(text)' is not KEY=VALUE, such as selected=3, selected=all or presentation=collapsed")
        }
        switch (parts[0], parts[1]) {
        case ("selected", "all"): test = .selectedAll
        case ("selected", let value): test = Int64(value).map(Test.selectedID) ?? .selectedTitle(value.lowercased())
        case ("presentation", let value):
            guard let presentation = FilterPresentation(rawValue: value) else {
                throw .usage("--until presentation must be expanded or collapsed, not '\(value)'")
            }
            test = .presentation(presentation)
        default:
            throw .usage("--until knows selected=… and presentation=…, not '\(parts[0])'")
        }
        description = "\(parts[0])=\(parts[1])"
    }

    /// Whether `state` satisfies the condition.
    package func isMet(by state: FilterState) -> Bool {
        switch test {
        case .selectedAll: state.selectedId == nil
        case .selectedID(let id): state.selectedId == id
        case .selectedTitle(let title):
            state.options.contains { $0.id == state.selectedId && $0.title.lowercased() == title }
        case .presentation(let presentation): state.presentation == presentation
        }
    }
}
