import ArgumentParser
import CatalogCLI
import CatalogKit

/// `--server`, `--context`, the TLS flags, `--codec` and `--max-time`: where calls go, how,
/// and how long each may take.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server (default 127.0.0.1:50051; env CATALOG_SERVER); https://host[:port] for TLS (port 443 by default).",
            valueName: "host:port"))
    var server: String?

    @Flag(help: "Use TLS, trusting the system's CAs unless --cacert (env CATALOG_TLS=1). Any TLS flag implies it.")
    var tls = false

    @Option(
        help: ArgumentHelp("Trust the CAs of this PEM file for the server's certificate (env CATALOG_CACERT).", valueName: "file"),
        completion: .file())
    var cacert: String?

    @Option(
        help: ArgumentHelp("Client certificate (PEM) for mutual TLS, with --key (env CATALOG_CERT).", valueName: "file"),
        completion: .file())
    var cert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --cert (env CATALOG_KEY).", valueName: "file"), completion: .file())
    var key: String?

    @Flag(help: "Accept any server certificate, unchecked: for tests only (env CATALOG_INSECURE=1).")
    var insecure = false

    @Option(
        help: ArgumentHelp("A context of the config file: its server, token and TLS settings.", valueName: "name"),
        completion: .custom(Completions.contexts))
    var context: String?

    @Option(
        help: ArgumentHelp(
            "How messages travel: json (default) or cbor (env CATALOG_CODEC). What is printed is the same.",
            valueName: "codec"))
    var codec: CatalogClient.Codec?

    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp("Seconds each call may take (default 30; streams: no limit).", valueName: "seconds"))
    var maxTime: Double?

    /// The TLS flags as given.
    var tlsFlags: TLSFlags {
        TLSFlags(tls: tls, caFile: cacert, certificate: cert, key: key, insecure: insecure)
    }

    func validate() throws {
        if let maxTime, maxTime <= 0 { throw ValidationError("--max-time must be more than 0 seconds") }
    }
}

extension CatalogClient.Codec: ExpressibleByArgument {}
