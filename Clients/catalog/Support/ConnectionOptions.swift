import ArgumentParser

/// `--server`, `--context` and `--max-time`: where calls go and how long each may take.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server (default 127.0.0.1:50051; env CATALOG_SERVER).", valueName: "host:port"))
    var server: String?

    @Option(
        help: ArgumentHelp("A context of the config file: its server and token.", valueName: "name"),
        completion: .custom(Completions.contexts))
    var context: String?

    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp("Seconds each call may take (default 30; streams: no limit).", valueName: "seconds"))
    var maxTime: Double?

    func validate() throws {
        if let maxTime, maxTime <= 0 { throw ValidationError("--max-time must be more than 0 seconds") }
    }
}
