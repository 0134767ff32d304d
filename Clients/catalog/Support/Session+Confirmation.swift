import CatalogCLI

extension Session {
    /// Whether a destructive command goes ahead, and how it got there.
    enum Go<Preview> {
        /// It does not: a dry run was shown, or the question was declined.
        case stop
        /// It does: with the preview a person saw and said yes to, `nil` with `--yes`.
        case ahead(confirmedPreview: Preview?)
    }

    /// Runs the start of a destructive command. With `--dry-run`, `preview` (the server's dry
    /// run) is printed as `dryRunOutput` and nothing else happens; with `--yes`, no preview
    /// is needed; otherwise the preview is summed up in `question` and the answer decides.
    ///
    /// - Parameter confirmation: Made before any call (so a missing `--yes` fails early);
    ///   `nil` for a dry run.
    func goAhead<Preview>(
        confirmation: Confirmation?,
        assumeYes: Bool,
        preview: () async throws -> Preview,
        dryRunOutput: (Preview) throws -> CommandOutput,
        question: (Preview) -> String
    ) async throws -> Go<Preview> {
        guard let confirmation else {
            printer.print(try dryRunOutput(try await preview()))
            return .stop
        }
        if assumeYes { return .ahead(confirmedPreview: nil) }
        let shown = try await preview()
        guard confirmation.ask(question(shown)) else {
            note("Nothing changed.")
            return .stop
        }
        return .ahead(confirmedPreview: shown)
    }

    /// The confirmation of a destructive command: `nil` for a dry run (nothing to confirm).
    ///
    /// - Throws: ``CLIFailure`` (usage) without `--yes` when standard input is not a terminal.
    func confirmation(dryRun: Bool, assumeYes: Bool, action: String) throws(CLIFailure) -> Confirmation? {
        dryRun ? nil : try Confirmation(console: console, assumeYes: assumeYes, action: action)
    }
}
