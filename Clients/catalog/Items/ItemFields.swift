import ArgumentParser
import CatalogCLI
import CatalogKit

/// The optional fields of an item, as `item create` and `item update` take them.
struct ItemFields: ParsableArguments {
    @Option(help: "A longer description.")
    var summary: String?

    @Option(help: "The level, e.g. Débutant.")
    var level: String?

    @Option(help: "The duration, e.g. '2 jours'.")
    var duration: String?

    @Option(help: ArgumentHelp("The price: amount and currency, e.g. '990.00 EUR'.", valueName: "amount currency"))
    var price: String?

    @Option(name: .customLong("image-url"), help: "An http(s) URL of its image.")
    var imageURL: String?

    @Option(help: ArgumentHelp("Its category (id or name).", valueName: "category"), completion: .custom(Completions.categories))
    var category: String?

    /// The parsed `--price`.
    func money() throws(CLIFailure) -> Money? {
        try price.map { text throws(CLIFailure) in try PriceArgument.parse(text) }
    }
}
